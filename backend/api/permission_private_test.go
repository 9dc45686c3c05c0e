package api_test

import (
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// TestPrivateStreamMatrix runs every scoped and own probe of the table as
// outsiders (a member and a guest outside the secret stream, and a bot):
// each answer about the private stream, its messages and the upload linked
// only there, or about alice's own queues, uploads and storage, must be
// exactly the answer about a twin that does not exist, and listings and
// search must show none of it. Then alice (or the administrator), who may
// see it all, must get a different answer, so each probe asks a real
// question.
func TestPrivateStreamMatrix(t *testing.T) {
	_, w := startWorld(t)
	hiddenFrom(t, w, []class{scoped, own}, w.bob, w.guest, w.echo)
}

// TestGuestsSeeOnlyTheirStreams: to a guest, a public stream it is not
// subscribed to is as hidden as a private one.
func TestGuestsSeeOnlyTheirStreams(t *testing.T) {
	_, w := startWorld(t)
	hiddenFrom(t, w.aboutRandom(), []class{scoped}, w.guest)
}

// hiddenFrom runs the probes of classes about w as each outsider, then as
// the insiders.
func hiddenFrom(t *testing.T, w world, classes []class, outsiders ...*apitest.Client) {
	t.Helper()
	missing := w.missing()
	real, twins := collect(w, classes...), collect(missing, classes...)
	same := func(a, b *apitest.Response) bool {
		return a.Status == b.Status && a.Body["code"] == b.Body["code"] && normalize(a.Msg(), w, missing) == normalize(b.Msg(), w, missing)
	}
	firsts := make([]*apitest.Response, len(real))
	for _, c := range outsiders {
		// Listings last, so they also show that no attempt got in.
		for _, listings := range []bool{false, true} {
			for i, p := range real {
				if (p.hides != nil) != listings {
					continue
				}
				a := p.send(c)
				if c == outsiders[0] {
					firsts[i] = a
				}
				switch {
				case p.hides != nil:
					if k := slices.IndexFunc(p.hides, func(h string) bool { return strings.Contains(string(a.Raw), h) }); k >= 0 || a.Status != 200 {
						t.Errorf("%s, %s: %d, shows %q: %.300s", c.Email(), p.name, a.Status, p.hides[max(k, 0)], a.Raw)
					}
				case p.refused:
					if a.Status != 400 || a.Body["result"] != "error" {
						t.Errorf("%s, %s: not refused: %d %s", c.Email(), p.name, a.Status, a.Raw)
					}
				default:
					if b := twins[i].send(c); !same(a, b) || a.Status == 200 {
						t.Errorf("%s, %s: the real one answers %d %s, the missing one %d %s", c.Email(), p.name, a.Status, a.Raw, b.Status, b.Raw)
					}
				}
			}
		}
	}
	for i, p := range real {
		a := p.send(w.client(p.insider))
		if p.hides != nil {
			if !strings.Contains(string(a.Raw), p.hides[0]) {
				t.Errorf("%s, %s: the insider's answer lacks %q, so the probe proves nothing: %.300s", p.insider, p.name, p.hides[0], a.Raw)
			}
		} else if same(a, firsts[i]) {
			t.Errorf("%s, %s: the insider is answered as an outsider (%d %s), so the probe proves nothing", p.insider, p.name, a.Status, a.Raw)
		}
		// Some probes (unsubscribe) take alice out; put her back.
		w.admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": w.stream}}, "principals": []string{"alice@example.com"}}).OK()
	}
}
