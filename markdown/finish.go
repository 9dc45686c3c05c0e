package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// finishTransformer is the last walk over the tree, after links are all
// made: mentions in quotes fall silent, ***x*** nests Zulip's way, image
// links get their previews, and what the message mentions and links to is
// noted in the render's Result. One walk dispatching by node kind where
// there were four.
type finishTransformer struct{}

func (*finishTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	source := reader.Source()
	e := envOf(pc)
	res := &e.result
	previews := inlinePreviews{doc: doc, lookup: e.lookup}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *mentionNode:
			silenceQuoted(n)
		case *ast.Emphasis:
			strongOutside(n)
		case *ast.Link:
			previews.add(n, source)
		}
		res.note(n)
		return ast.WalkContinue, nil
	})
	res.settle()
}
