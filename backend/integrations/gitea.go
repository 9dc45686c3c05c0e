package integrations

import (
	"fmt"
	"strings"
)

// gitea formats Gitea's webhooks, told apart by the X-Gitea-Event header:
// pushes, branches and tags created or deleted, issues, pull requests and
// their reviews, comments and releases. An issue's or pull request's
// comments and reviews share its topic.
func init() {
	register(Integration{Name: "gitea", Client: "Gitea", DefaultTopic: "Gitea", Convert: gitea})
}

type giteaRepo struct {
	FullName string `json:"full_name"`
	HTMLURL  string `json:"html_url"`
}

type giteaUser struct {
	Login string `json:"login"`
}

type giteaItem struct {
	Number  int    `json:"number"`
	Title   string `json:"title"`
	HTMLURL string `json:"html_url"`
	Merged  bool   `json:"merged"`
	Head    struct {
		Ref string `json:"ref"`
	} `json:"head"`
	Base struct {
		Ref string `json:"ref"`
	} `json:"base"`
	// PullRequest is set on the issue of a pull request's comment.
	PullRequest *struct{} `json:"pull_request"`
}

type giteaPayload struct {
	// push
	Ref          string `json:"ref"`
	After        string `json:"after"`
	Compare      string `json:"compare_url"`
	TotalCommits int    `json:"total_commits"`
	Commits      []struct {
		ID      string `json:"id"`
		Message string `json:"message"`
		URL     string `json:"url"`
	} `json:"commits"`
	Pusher giteaUser `json:"pusher"`
	// create, delete
	RefType string `json:"ref_type"`
	// issues, pull_request, issue_comment, release
	Action      string     `json:"action"`
	Issue       *giteaItem `json:"issue"`
	PullRequest *giteaItem `json:"pull_request"`
	Comment     *struct {
		Body    string `json:"body"`
		HTMLURL string `json:"html_url"`
	} `json:"comment"`
	Review *struct {
		Content string `json:"content"`
	} `json:"review"`
	Release *struct {
		TagName string `json:"tag_name"`
		Name    string `json:"name"`
		HTMLURL string `json:"html_url"`
	} `json:"release"`
	Repository giteaRepo `json:"repository"`
	Sender     giteaUser `json:"sender"`
}

// giteaReviews are the review events, by the verb their message uses.
var giteaReviews = map[string]string{
	"pull_request_approved": "approved",
	"pull_request_rejected": "requested changes on",
	"pull_request_comment":  "reviewed",
}

func gitea(r Request) ([]Message, error) {
	var p giteaPayload
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	who := "**" + cmpOr(cmpOr(p.Sender.Login, p.Pusher.Login), "Someone") + "**"
	repo := p.Repository.FullName
	event := r.Header.Get("X-Gitea-Event")
	switch event {
	case "push":
		return []Message{p.push(who, r.MaxContent)}, nil
	case "create", "delete":
		if p.Ref == "" {
			return nil, payloadError("Missing 'ref'")
		}
		return []Message{{Topic: repo + " / " + p.Ref,
			Content: fmt.Sprintf("%s %sd %s %s.", who, event, cmpOr(p.RefType, "ref"), p.Ref)}}, nil
	case "issues":
		if p.Issue == nil {
			return nil, payloadError("Missing 'issue'")
		}
		i := p.Issue
		return []Message{{Topic: fmt.Sprintf("%s / Issue #%d %s", repo, i.Number, i.Title),
			Content: fmt.Sprintf("%s %s [issue #%d %s](%s)", who, giteaAction(p.Action), i.Number, i.Title, i.HTMLURL)}}, nil
	case "pull_request", "pull_request_approved", "pull_request_rejected", "pull_request_comment":
		if p.PullRequest == nil {
			return nil, payloadError("Missing 'pull_request'")
		}
		pr := p.PullRequest
		topic := fmt.Sprintf("%s / PR #%d %s", repo, pr.Number, pr.Title)
		if verb, review := giteaReviews[event]; review {
			content := fmt.Sprintf("%s %s [PR #%d %s](%s)", who, verb, pr.Number, pr.Title, pr.HTMLURL)
			if p.Review != nil {
				content += quote(p.Review.Content)
			}
			return []Message{{Topic: topic, Content: content}}, nil
		}
		action := giteaAction(p.Action)
		if p.Action == "closed" && pr.Merged {
			action = "merged"
		}
		return []Message{{Topic: topic,
			Content: fmt.Sprintf("%s %s [PR #%d %s](%s) from `%s` to `%s`", who, action, pr.Number, pr.Title, pr.HTMLURL, pr.Head.Ref, pr.Base.Ref)}}, nil
	case "issue_comment":
		if p.Issue == nil || p.Comment == nil {
			return nil, payloadError("Missing 'issue' or 'comment'")
		}
		i := p.Issue
		kind, topicKind := "issue", "Issue"
		if i.PullRequest != nil {
			kind, topicKind = "PR", "PR"
		}
		verb := map[string]string{"created": "commented", "edited": "edited a comment", "deleted": "deleted a comment"}[p.Action]
		return []Message{{Topic: fmt.Sprintf("%s / %s #%d %s", repo, topicKind, i.Number, i.Title),
			Content: fmt.Sprintf("%s [%s](%s) on %s #%d %s", who, cmpOr(verb, giteaAction(p.Action)), p.Comment.HTMLURL, kind, i.Number, i.Title) +
				quote(p.Comment.Body)}}, nil
	case "release":
		if p.Release == nil {
			return nil, payloadError("Missing 'release'")
		}
		rel := p.Release
		return []Message{{Topic: repo + " / releases",
			Content: fmt.Sprintf("%s %s release [%s](%s) (tag `%s`)", who, giteaAction(p.Action), cmpOr(rel.Name, rel.TagName), rel.HTMLURL, rel.TagName)}}, nil
	case "":
		return nil, payloadError("Missing the X-Gitea-Event header")
	default:
		return nil, unsupportedEvent(event)
	}
}

// push lists the pushed commits, as many as fit; Gitea itself sends only
// the last few (total_commits counts them all), so the rest are counted
// and linked.
func (p giteaPayload) push(who string, limit int) Message {
	repo := p.Repository.FullName
	if name, ok := strings.CutPrefix(p.Ref, "refs/tags/"); ok {
		return Message{Topic: repo + " / " + name, Content: fmt.Sprintf("%s pushed tag %s.", who, name)}
	}
	branch := strings.TrimPrefix(p.Ref, "refs/heads/")
	topic := repo + " / " + branch
	if strings.Trim(p.After, "0") == "" && p.After != "" {
		return Message{Topic: topic, Content: fmt.Sprintf("%s deleted branch %s.", who, branch)}
	}
	total := max(p.TotalCommits, len(p.Commits))
	pushed := fmt.Sprintf("%d %s", total, plural(total, "commit", "commits"))
	if p.Compare != "" {
		pushed = fmt.Sprintf("[%s](%s)", pushed, p.Compare)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s pushed %s to branch %s.\n", who, pushed, branch)
	const footerRoom = 100
	shown := 0
	for _, c := range p.Commits {
		title, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
		line := fmt.Sprintf("\n* %s ([%s](%s))", cut(title), shortSHA(c.ID), c.URL)
		if limit > 0 && b.Len()+len(line) > limit-footerRoom {
			break
		}
		b.WriteString(line)
		shown++
	}
	if more := total - shown; more > 0 && shown > 0 {
		fmt.Fprintf(&b, "\n\n*%d more %s not shown.*", more, plural(more, "commit", "commits"))
	}
	return Message{Topic: topic, Content: b.String()}
}

// giteaAction is an action as words ("label_updated": "label updated").
func giteaAction(action string) string {
	return strings.ReplaceAll(cmpOr(action, "updated"), "_", " ")
}

// quote is text as a quoted block after a message's first line, cut short.
func quote(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	if r := []rune(text); len(r) > maxQuote {
		text = string(r[:maxQuote]) + "…"
	}
	fence := codeFence(text, 3)
	return ":\n" + fence + " quote\n" + text + "\n" + fence
}

// maxQuote bounds a quoted comment or review.
const maxQuote = 1000

func shortSHA(sha string) string { return sha[:min(7, len(sha))] }
