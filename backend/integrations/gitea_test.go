package integrations

import "testing"

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
		{name: "unsupported event", fixture: "gitea_push.json", event: "release", err: "The Gitea event 'release' is not supported"},
		{name: "issues event without an issue", body: `{}`, event: "issues", err: "Missing 'issue'"},
		{name: "pull_request event without one", body: `{}`, event: "pull_request", err: "Missing 'pull_request'"},
		{name: "not JSON", body: `payload=x`, event: "push", err: "Malformed JSON"},
	})
}
