// Package teamimport brings a team's history from another chat server's
// export into a new Lanchat data folder: it opens the archive, has the
// format's reader hand its records to the domain's importer, and moves the
// finished folder into place. A refused archive leaves nothing behind.
package teamimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lanchat/backend/archive"
	"lanchat/backend/archive/mattermost"
	"lanchat/backend/archive/slack"
	"lanchat/backend/archive/zulip"
	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// Reader reads one format's archive into a sink.
type Reader func(*archive.Archive, archive.Sink) error

// readers are the formats an import reads, by name.
var readers = map[string]Reader{
	"slack":      slack.Read,
	"mattermost": mattermost.Read,
	"zulip":      zulip.Read,
}

// Formats lists the formats Run reads.
func Formats() []string {
	var out []string
	for name := range readers {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// namers read the organization's name an archive gives, without the rest.
var namers = map[string]func(*archive.Archive) (string, error){
	"slack":      slack.Name,
	"mattermost": mattermost.Name,
	"zulip":      zulip.Name,
}

// ExportName is the organization's name an import of the archive gives
// without Options.RealmName, for the host to see (and change) before
// importing. A tar.gz would have to be unpacked whole to be read: its
// name is "", for the import to tell.
func ExportName(format, name string) (string, error) {
	namer := namers[format]
	if namer == nil {
		return "", fmt.Errorf("unknown archive format %q (this build reads: %s)", format, strings.Join(Formats(), ", "))
	}
	if gz, err := isGzip(name); err != nil || gz {
		return "", err
	}
	a, err := open(name, "", archive.Limits{})
	if err != nil {
		return "", err
	}
	defer a.Close()
	realm, err := namer(a)
	if err != nil {
		return "", err
	}
	return domain.ImportedRealmName(realm), nil
}

// isGzip tells a tar.gz by its first bytes.
func isGzip(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	magic := make([]byte, 2)
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == "\x1f\x8b", nil
}

// Options say what to import and where.
type Options struct {
	// DataDir is the data folder to create; it must be absent or empty.
	DataDir string
	// Format is the archive's format: "slack", "mattermost" or "zulip".
	Format string
	// Archive is the export: a zip file or an unpacked folder.
	Archive string
	// RealmName, when set, names the organization instead of the name the
	// archive carries (a Zulip or Mattermost export's, the workspace's in
	// a Slack export's file name, else domain.DefaultRealmName). It
	// follows the API's rule for organization names.
	RealmName string
	// Progress, when set, is told how far the import has gone, now and
	// then and at each change of phase.
	Progress func(archive.Progress)
	// Read, when set, reads the archive instead of Format's reader (tests
	// of the importer itself).
	Read Reader
	// Limits bound what a zip may claim; zero means archive.DefaultLimits.
	Limits archive.Limits
	// MaxFileSize bounds each file's claimed size; zero means
	// domain.DefaultMaxImportFileSize.
	MaxFileSize int64
}

// Run imports an archive into a new data folder. It writes into a
// temporary sibling of DataDir and renames it into place only once every
// record is in; on any error the temporary folder is removed and DataDir
// is as it was.
func Run(ctx context.Context, o Options) (archive.Summary, error) {
	read := o.Read
	if read == nil {
		read = readers[o.Format]
	}
	if read == nil {
		return archive.Summary{}, fmt.Errorf("unknown archive format %q (this build reads: %s)", o.Format, strings.Join(Formats(), ", "))
	}
	if o.RealmName != "" {
		name, err := domain.ValidateRealmName(o.RealmName)
		var bad *domain.Error
		if errors.As(err, &bad) {
			return archive.Summary{}, errors.New(bad.Msg)
		} else if err != nil {
			return archive.Summary{}, err
		}
		o.RealmName = name
	}
	tmp, err := temporaryFolder(o.DataDir)
	if err != nil {
		return archive.Summary{}, err
	}
	// A tar.gz is unpacked beside the import, and removed when closed.
	a, err := open(o.Archive, tmp+".archive", o.Limits)
	if err != nil {
		os.RemoveAll(tmp)
		return archive.Summary{}, err
	}
	defer a.Close()
	a.Scratch = tmp
	if err := checkRoom(tmp, a); err != nil {
		os.RemoveAll(tmp)
		return archive.Summary{}, err
	}
	summary, err := importInto(ctx, tmp, a, read, o)
	if err == nil {
		err = place(tmp, o.DataDir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return archive.Summary{}, err
	}
	return summary, nil
}

// open opens a zip or tar.gz export or a bare JSON-lines file (told apart
// by their first bytes), or an unpacked folder; a tar.gz is unpacked into
// scratch.
func open(name, scratch string, limits archive.Limits) (*archive.Archive, error) {
	if limits == (archive.Limits{}) {
		limits = archive.DefaultLimits
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return archive.OpenDir(name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	magic := make([]byte, 2)
	_, err = io.ReadFull(f, magic)
	f.Close()
	switch {
	case err == nil && string(magic) == "\x1f\x8b":
		return archive.OpenTarGz(name, scratch, limits)
	case err == nil && magic[0] == '{':
		// JSON lines alone: Mattermost's import.jsonl without its zip.
		return archive.OpenFile(name)
	}
	return archive.OpenZip(name, limits)
}

// temporaryFolder checks that dataDir is absent or empty and makes the
// folder the import writes into, beside it on the same file system.
func temporaryFolder(dataDir string) (string, error) {
	if dataDir == "" {
		return "", errors.New("no data folder given")
	}
	entries, err := os.ReadDir(dataDir)
	switch {
	case err == nil && len(entries) > 0:
		return "", fmt.Errorf("%s is not empty: an import goes into a new or empty data folder", dataDir)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	parent := filepath.Dir(filepath.Clean(dataDir))
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", err
	}
	return os.MkdirTemp(parent, "."+filepath.Base(dataDir)+".import-")
}

// checkRoom refuses an archive whose files claim more than the disk
// holding the data folder has free: its messages and files would not fit.
func checkRoom(dir string, a *archive.Archive) error {
	free := freeSpace(dir)
	if free == nil || a.Claimed == 0 {
		return nil
	}
	n, err := free()
	if err != nil {
		return err
	}
	if a.Claimed > n {
		return fmt.Errorf("the archive claims %d bytes uncompressed, more than the %d free on the disk of %s", a.Claimed, n, dir)
	}
	return nil
}

// importInto reads the archive into a new store in dir.
func importInto(ctx context.Context, dir string, a *archive.Archive, read Reader, o Options) (archive.Summary, error) {
	st, err := store.Open(dir)
	if err != nil {
		return archive.Summary{}, err
	}
	defer st.Close()
	im := domain.New(st, domain.Config{DataDir: dir}).NewImporter()
	im.MaxFileSize, im.FreeSpace = o.MaxFileSize, freeSpace(dir)
	var named archive.Sink = im
	if o.RealmName != "" {
		named = renamed{im, o.RealmName}
	}
	sink := newProgressSink(ctx, named, a, o.Progress)
	if err := read(a, sink); err != nil {
		return archive.Summary{}, err
	}
	if err := ctx.Err(); err != nil {
		return archive.Summary{}, err
	}
	sink.phase("finishing")
	summary, err := im.Finish()
	if err != nil {
		return archive.Summary{}, err
	}
	sink.phase("done")
	return summary, st.Close()
}

// renamed gives the organization the name the host chose over the
// archive's.
type renamed struct {
	archive.Sink
	name string
}

func (r renamed) Realm(realm archive.Realm) error {
	realm.Name = r.name
	return r.Sink.Realm(realm)
}

// place moves the finished folder to dataDir (replacing it when it is an
// empty folder) and makes the rename durable.
func place(tmp, dataDir string) error {
	if err := os.Remove(dataDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmp, dataDir); err != nil {
		return err
	}
	parent, err := os.Open(filepath.Dir(filepath.Clean(dataDir)))
	if err != nil {
		return err
	}
	defer parent.Close()
	return parent.Sync()
}
