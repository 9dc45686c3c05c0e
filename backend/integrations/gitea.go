package integrations

import (
	"fmt"
	"strings"
)

// gitea formats Gitea's push, issues and pull_request webhooks, told apart
// by the X-Gitea-Event header.
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
}

func gitea(r Request) ([]Message, error) {
	var p struct {
		Ref     string `json:"ref"`
		Compare string `json:"compare_url"`
		Commits []struct {
			ID      string `json:"id"`
			Message string `json:"message"`
			URL     string `json:"url"`
		} `json:"commits"`
		Action      string     `json:"action"`
		Issue       *giteaItem `json:"issue"`
		PullRequest *giteaItem `json:"pull_request"`
		Repository  giteaRepo  `json:"repository"`
		Sender      giteaUser  `json:"sender"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	repo := p.Repository.FullName
	switch event := r.Header.Get("X-Gitea-Event"); event {
	case "push":
		branch := strings.TrimPrefix(p.Ref, "refs/heads/")
		noun := "commits"
		if len(p.Commits) == 1 {
			noun = "commit"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** pushed [%d %s](%s) to branch %s.\n", p.Sender.Login, len(p.Commits), noun, p.Compare, branch)
		for _, c := range p.Commits {
			title, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
			fmt.Fprintf(&b, "\n* %s ([%s](%s))", title, shortSHA(c.ID), c.URL)
		}
		return []Message{{Topic: repo + " / " + branch, Content: b.String()}}, nil
	case "issues":
		if p.Issue == nil {
			return nil, payloadError("Missing 'issue'")
		}
		i := p.Issue
		return []Message{{Topic: fmt.Sprintf("%s / Issue #%d %s", repo, i.Number, i.Title),
			Content: fmt.Sprintf("**%s** %s [issue #%d %s](%s)", p.Sender.Login, p.Action, i.Number, i.Title, i.HTMLURL)}}, nil
	case "pull_request":
		if p.PullRequest == nil {
			return nil, payloadError("Missing 'pull_request'")
		}
		pr := p.PullRequest
		action := p.Action
		if action == "closed" && pr.Merged {
			action = "merged"
		}
		return []Message{{Topic: fmt.Sprintf("%s / PR #%d %s", repo, pr.Number, pr.Title),
			Content: fmt.Sprintf("**%s** %s [PR #%d %s](%s) from `%s` to `%s`", p.Sender.Login, action, pr.Number, pr.Title, pr.HTMLURL, pr.Head.Ref, pr.Base.Ref)}}, nil
	case "":
		return nil, payloadError("Missing the X-Gitea-Event header")
	default:
		return nil, payloadError("The Gitea event '%s' is not supported", event)
	}
}

func shortSHA(sha string) string { return sha[:min(7, len(sha))] }
