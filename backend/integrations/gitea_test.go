package integrations

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestGitea(t *testing.T) {
	runCases(t, "gitea", []convertCase{
		{name: "push", fixture: "gitea_push.json", event: "push", topic: "ops/infra / main",
			content: "**alice** pushed [2 commits](https://git.lan/ops/infra/compare/28e1879d029c...bffeb7422404) to branch main.\n" +
				"\n* Fix the backup cron ([bffeb74](https://git.lan/ops/infra/commit/bffeb74224043ba2feb48d137756c8a9331c449a))" +
				"\n* Bump the chart version ([9e3a4c2](https://git.lan/ops/infra/commit/9e3a4c2d8f0b1a2c3d4e5f60718293a4b5c6d7e8))"},
		{name: "push of one commit", fixture: "gitea_push_one.json", event: "push", topic: "ops/infra / docs",
			content: "**bob** pushed [1 commit](https://git.lan/ops/infra/compare/9e3a4c2d8f0b...5d1c0a7e2b3f) to branch docs.\n" +
				"\n* Document the restore drill ([5d1c0a7](https://git.lan/ops/infra/commit/5d1c0a7e2b3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b))"},
		{name: "issue opened", fixture: "gitea_issues.json", event: "issues", topic: "ops/infra / Issue #12 Printer on floor 2 is offline",
			content: "**bob** opened [issue #12 Printer on floor 2 is offline](https://git.lan/ops/infra/issues/12)"},
		{name: "issue closed", fixture: "gitea_issues_closed.json", event: "issues", topic: "ops/infra / Issue #12 Printer on floor 2 is offline",
			content: "**alice** closed [issue #12 Printer on floor 2 is offline](https://git.lan/ops/infra/issues/12)"},
		{name: "pull request opened", fixture: "gitea_pull_request_opened.json", event: "pull_request", topic: "ops/infra / PR #6 Rotate the backup keys",
			content: "**bob** opened [PR #6 Rotate the backup keys](https://git.lan/ops/infra/pulls/6) from `rotate-keys` to `main`"},
		{name: "pull request merged", fixture: "gitea_pull_request.json", event: "pull_request", topic: "ops/infra / PR #5 Add Grafana dashboards",
			content: "**alice** merged [PR #5 Add Grafana dashboards](https://git.lan/ops/infra/pulls/5) from `dashboards` to `main`"},
		{name: "no event header", fixture: "gitea_push.json", err: "Missing the X-Gitea-Event header"},
		{name: "unsupported event", fixture: "gitea_push.json", event: "fork", ignored: "fork"},
		{name: "issues event without an issue", body: `{}`, event: "issues", err: "Missing 'issue'"},
		{name: "pull_request event without one", body: `{}`, event: "pull_request", err: "Missing 'pull_request'"},
		{name: "not JSON", body: `payload=x`, event: "push", err: "Malformed JSON"},
		{name: "zulip fixture, push of 5", fixture: "zulip/gitea_push__5_commits.json", event: "push", topic: "kostekIV/test / d",
			content: "**kostekIV** pushed [5 commits](https://try.gitea.io/kostekIV/test/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...2ec0c971d04723523aa20f2b378f8b419b47d4ec) to branch d.\n" +
				"\n* commit ([2ec0c97](https://try.gitea.io/kostekIV/test/commit/2ec0c971d04723523aa20f2b378f8b419b47d4ec))" +
				"\n* commit ([6cb1701](https://try.gitea.io/kostekIV/test/commit/6cb1701c8b0114ad716f4cd49153076e7109cb85))" +
				"\n* commit ([6773eab](https://try.gitea.io/kostekIV/test/commit/6773eabc0778a3e38997c06a13f5f0c48b67e5dc))" +
				"\n* commit ([337402c](https://try.gitea.io/kostekIV/test/commit/337402cf675ce7082ddcd23d06a116c85241825a))" +
				"\n* commit ([0a38cad](https://try.gitea.io/kostekIV/test/commit/0a38cad3fac3a13bb78b738d13f15ce9cc3343fa))"},
		// Gitea sends the last few commits of a push and counts them all.
		{name: "push of more commits than Gitea sends", event: "push", topic: "ops/infra / main",
			body: `{"ref": "refs/heads/main", "after": "bffeb74224043ba2feb48d137756c8a9331c449a", "compare_url": "https://git.lan/ops/infra/compare/a...b", "total_commits": 30,
				"commits": [{"id": "bffeb74224043ba2feb48d137756c8a9331c449a", "message": "Last one", "url": "https://git.lan/c/1"}],
				"repository": {"full_name": "ops/infra"}, "pusher": {"login": "alice"}, "sender": {"login": "alice"}}`,
			content: "**alice** pushed [30 commits](https://git.lan/ops/infra/compare/a...b) to branch main.\n\n* Last one ([bffeb74](https://git.lan/c/1))\n\n*29 more commits not shown.*"},
		{name: "push without compare_url or sender", event: "push", topic: "ops/infra / new",
			body: `{"ref": "refs/heads/new", "after": "5d1c0a7e", "compare_url": "", "commits": [{"id": "5d1c0a7e", "message": "First", "url": "https://git.lan/c/2"}],
				"repository": {"full_name": "ops/infra"}, "pusher": {"login": "bob"}}`,
			content: "**bob** pushed 1 commit to branch new.\n\n* First ([5d1c0a7](https://git.lan/c/2))"},
		{name: "push of a tag", event: "push", topic: "ops/infra / v1.2.0",
			body:    `{"ref": "refs/tags/v1.2.0", "after": "5d1c0a7e", "commits": [], "total_commits": 0, "repository": {"full_name": "ops/infra"}, "sender": {"login": "bob"}}`,
			content: "**bob** pushed tag v1.2.0."},
		{name: "push deleting a branch", event: "push", topic: "ops/infra / old",
			body:    `{"ref": "refs/heads/old", "after": "0000000000000000000000000000000000000000", "commits": [], "repository": {"full_name": "ops/infra"}, "sender": {"login": "bob"}}`,
			content: "**bob** deleted branch old."},
		{name: "branch created", event: "create", topic: "ops/infra / rotate-keys",
			body:    `{"sha": "5d1c0a7e", "ref": "rotate-keys", "ref_type": "branch", "repository": {"full_name": "ops/infra"}, "sender": {"login": "bob"}}`,
			content: "**bob** created branch rotate-keys."},
		{name: "tag deleted", event: "delete", topic: "ops/infra / v0.9",
			body:    `{"ref": "v0.9", "ref_type": "tag", "pusher_type": "user", "repository": {"full_name": "ops/infra"}, "sender": {"login": "alice"}}`,
			content: "**alice** deleted tag v0.9."},
		{name: "issue labelled", event: "issues", topic: "ops/infra / Issue #12 Printer on floor 2 is offline",
			body:    `{"action": "label_updated", "issue": {"number": 12, "title": "Printer on floor 2 is offline", "html_url": "https://git.lan/ops/infra/issues/12"}, "repository": {"full_name": "ops/infra"}, "sender": {"login": "bob"}}`,
			content: "**bob** label updated [issue #12 Printer on floor 2 is offline](https://git.lan/ops/infra/issues/12)"},
		{name: "comment on an issue", event: "issue_comment", topic: "ops/infra / Issue #12 Printer on floor 2 is offline",
			body: `{"action": "created", "issue": {"number": 12, "title": "Printer on floor 2 is offline", "html_url": "https://git.lan/ops/infra/issues/12", "pull_request": null},
				"comment": {"html_url": "https://git.lan/ops/infra/issues/12#issuecomment-7", "body": "Toner was empty.\n` + "```" + `\nfixed\n` + "```" + `"},
				"repository": {"full_name": "ops/infra"}, "sender": {"login": "carol"}, "is_pull": false}`,
			content: "**carol** [commented](https://git.lan/ops/infra/issues/12#issuecomment-7) on issue #12 Printer on floor 2 is offline:\n" +
				"```` quote\nToner was empty.\n```\nfixed\n```\n````"},
		{name: "comment on a pull request", event: "issue_comment", topic: "ops/infra / PR #6 Rotate the backup keys",
			body: `{"action": "edited", "issue": {"number": 6, "title": "Rotate the backup keys", "pull_request": {"merged": false}},
				"comment": {"html_url": "https://git.lan/ops/infra/pulls/6#issuecomment-9", "body": "LGTM"}, "repository": {"full_name": "ops/infra"}, "sender": {"login": "alice"}, "is_pull": true}`,
			content: "**alice** [edited a comment](https://git.lan/ops/infra/pulls/6#issuecomment-9) on PR #6 Rotate the backup keys:\n``` quote\nLGTM\n```"},
		{name: "review approved", event: "pull_request_approved", topic: "ops/infra / PR #6 Rotate the backup keys",
			body: `{"action": "reviewed", "number": 6, "pull_request": {"number": 6, "title": "Rotate the backup keys", "html_url": "https://git.lan/ops/infra/pulls/6"},
				"review": {"type": "pull_request_review_approved", "content": "Ship it"}, "repository": {"full_name": "ops/infra"}, "sender": {"login": "alice"}}`,
			content: "**alice** approved [PR #6 Rotate the backup keys](https://git.lan/ops/infra/pulls/6):\n``` quote\nShip it\n```"},
		{name: "release published", event: "release", topic: "ops/infra / releases",
			body: `{"action": "published", "release": {"tag_name": "v1.2.0", "name": "Spring", "html_url": "https://git.lan/ops/infra/releases/tag/v1.2.0"},
				"repository": {"full_name": "ops/infra"}, "sender": {"login": "alice"}}`,
			content: "**alice** published release [Spring](https://git.lan/ops/infra/releases/tag/v1.2.0) (tag `v1.2.0`)"},
		{name: "comment event without a comment", body: `{"action": "created", "issue": {"number": 1}}`, event: "issue_comment", err: "Missing 'issue' or 'comment'"},
		{name: "release event without a release", body: `{}`, event: "release", err: "Missing 'release'"},
		{name: "create event without a ref", body: `{}`, event: "create", err: "Missing 'ref'"},
	})
}

// A push of thousands of commits with long messages shows what fits and
// counts the rest.
func TestGiteaLargePushFits(t *testing.T) {
	type commit struct {
		ID      string `json:"id"`
		Message string `json:"message"`
		URL     string `json:"url"`
	}
	var commits []commit
	for i := range 2000 {
		id := fmt.Sprintf("%040x", i+1)
		commits = append(commits, commit{ID: id, Message: strings.Repeat("word ", 30) + "\n\nbody", URL: "https://git.lan/ops/infra/commit/" + id})
	}
	body, _ := json.Marshal(map[string]any{"ref": "refs/heads/main", "after": commits[0].ID, "compare_url": "https://git.lan/c", "total_commits": 2500,
		"commits": commits, "repository": map[string]string{"full_name": "ops/infra"}, "sender": map[string]string{"login": "alice"}})
	i, _ := Lookup("gitea")
	msgs, err := i.Convert(Request{Body: body, Header: http.Header{"X-Gitea-Event": {"push"}}, MaxContent: serverLimit})
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%v, %d messages", err, len(msgs))
	}
	content := msgs[0].Content
	shown := strings.Count(content, "\n* ")
	var more int
	footer := ""
	if at := strings.LastIndex(content, "\n\n*"); at >= 0 {
		footer = content[at+len("\n\n*"):]
	}
	if footer == "" || len(content) > serverLimit {
		t.Fatalf("%d bytes, footer %q", len(content), footer)
	} else if _, err := fmt.Sscanf(footer, "%d more commits not shown.*", &more); err != nil || shown+more != 2500 || shown < 20 {
		t.Errorf("%d shown, %d counted (%v)", shown, more, err)
	}
	if !strings.HasPrefix(content, "**alice** pushed [2500 commits](https://git.lan/c) to branch main.") {
		t.Errorf("headline %q", content[:80])
	}
}
