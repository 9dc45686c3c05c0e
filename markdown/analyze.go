package markdown

import (
	"path"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// analyze collects what a message does: who it mentions (outside quotes,
// not silently) and what links it holds.
func analyze(doc ast.Node, source []byte) Result {
	var res Result
	note := func(dest string) {
		if !safeURL(dest) {
			return
		}
		res.HasLink = true
		clean := strings.ToLower(strings.SplitN(strings.SplitN(dest, "?", 2)[0], "#", 2)[0])
		if strings.HasPrefix(clean, "/user_uploads/") {
			res.HasAttachment = true
		}
		switch path.Ext(clean) {
		case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp":
			res.HasImage = true
		}
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *Mention:
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
		case *ast.Link:
			note(string(x.Destination))
		case *ast.Image:
			note(string(x.Destination))
			res.HasImage = res.HasImage || safeURL(string(x.Destination))
		case *ast.AutoLink:
			note(string(x.URL(source)))
		}
		return ast.WalkContinue, nil
	})
	slices.Sort(res.MentionedUserIDs)
	res.MentionedUserIDs = slices.Compact(res.MentionedUserIDs)
	slices.Sort(res.MentionedGroupIDs)
	res.MentionedGroupIDs = slices.Compact(res.MentionedGroupIDs)
	return res
}
