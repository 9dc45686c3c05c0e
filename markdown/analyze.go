package markdown

import (
	"path"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// imageExtensions are the files Zulip previews inline as images.
var imageExtensions = map[string]bool{".bmp": true, ".gif": true, ".jpe": true, ".jpeg": true, ".jpg": true, ".png": true, ".webp": true}

// note adds what node n tells of the message: whom it mentions (not
// silently) and what it links to. Any link, stream links included, sets
// HasLink, as in Zulip; links to images outside quotes set HasImage (Zulip
// previews those), links to uploads set HasAttachment. It runs in the
// finishing walk, after quoted mentions have fallen silent.
func (res *Result) note(n ast.Node) {
	switch x := n.(type) {
	case *mentionNode:
		switch {
		case x.Silent:
		case x.Wildcard == "topic":
			res.TopicWildcard = true
		case x.Wildcard != "":
			res.StreamWildcard = true
		case x.GroupID != 0:
			res.MentionedGroupIDs = append(res.MentionedGroupIDs, x.GroupID)
		default:
			res.MentionedUserIDs = append(res.MentionedUserIDs, x.UserID)
		}
	case *streamLinkNode:
		res.HasLink = true
	case *ast.Link:
		res.HasLink = true
		dest := string(x.Destination)
		dest, _, _ = strings.Cut(dest, "#")
		dest, _, _ = strings.Cut(dest, "?")
		if strings.HasPrefix(dest, "/user_uploads/") {
			res.HasAttachment = true
		}
		if imageExtensions[strings.ToLower(path.Ext(dest))] && !insideQuote(x) {
			res.HasImage = true
		}
	}
}

// settle sorts the mentions and drops repeats, once every node is noted.
func (res *Result) settle() {
	slices.Sort(res.MentionedUserIDs)
	res.MentionedUserIDs = slices.Compact(res.MentionedUserIDs)
	slices.Sort(res.MentionedGroupIDs)
	res.MentionedGroupIDs = slices.Compact(res.MentionedGroupIDs)
}
