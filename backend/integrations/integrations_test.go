package integrations

import (
	"errors"
	"net/http"
	"os"
	"testing"
)

func TestIntegrationsOnRecordedPayloads(t *testing.T) {
	cases := []struct {
		integration, fixture, event string
		topic, content              string
	}{
		{"helloworld", "helloworld.json", "", "",
			"Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**"},
		{"gitea", "gitea_push.json", "push", "ops/infra / main",
			"**alice** pushed [2 commits](https://git.lan/ops/infra/compare/28e1879d029c...bffeb7422404) to branch main.\n" +
				"\n* Fix the backup cron ([bffeb74](https://git.lan/ops/infra/commit/bffeb74224043ba2feb48d137756c8a9331c449a))" +
				"\n* Bump the chart version ([9e3a4c2](https://git.lan/ops/infra/commit/9e3a4c2d8f0b1a2c3d4e5f60718293a4b5c6d7e8))"},
		{"gitea", "gitea_issues.json", "issues", "ops/infra / Issue #12 Printer on floor 2 is offline",
			"**bob** opened [issue #12 Printer on floor 2 is offline](https://git.lan/ops/infra/issues/12)"},
		{"gitea", "gitea_pull_request.json", "pull_request", "ops/infra / PR #5 Add Grafana dashboards",
			"**alice** merged [PR #5 Add Grafana dashboards](https://git.lan/ops/infra/pulls/5) from `dashboards` to `main`"},
		{"alertmanager", "alertmanager_firing.json", "", "DiskFull",
			":rotating_light: **FIRING** DiskFull\n* nas1:9100: /srv is 97% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n* nas2:9100: /srv is 95% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))"},
		{"alertmanager", "alertmanager_resolved.json", "", "HostDown",
			":white_check_mark: **RESOLVED** HostDown\n* printer2: alertname=HostDown, instance=printer2"},
		{"grafana", "grafana_alert.json", "", "HighCPU",
			":rotating_light: **[FIRING:1] HighCPU**\n* CPU above 90% on build1 `[ var='A' labels={instance=build1} value=93 ]` ([dashboard](http://grafana.lan/d/abc))"},
		{"json", "json_generic.json", "", "",
			"```json\n{\n  \"job\": \"nightly-backup\",\n  \"ok\": true,\n  \"duration_s\": 312\n}\n```"},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			body, err := os.ReadFile("testdata/" + tc.fixture)
			if err != nil {
				t.Fatal(err)
			}
			i, ok := Lookup(tc.integration)
			if !ok {
				t.Fatalf("%s not registered (have %v)", tc.integration, Names())
			}
			msg, err := i.Convert(Request{Body: body, Header: http.Header{"X-Gitea-Event": {tc.event}}})
			if err != nil {
				t.Fatal(err)
			}
			if msg.Topic != tc.topic || msg.Content != tc.content {
				t.Errorf("got topic %q content\n%s\nwant topic %q content\n%s", msg.Topic, msg.Content, tc.topic, tc.content)
			}
		})
	}
}

func TestIntegrationsRefuseBadPayloads(t *testing.T) {
	cases := []struct {
		integration, body, event string
	}{
		{"helloworld", `{"featured_title": "x"}`, ""},
		{"helloworld", `not json`, ""},
		{"gitea", `{}`, ""},
		{"gitea", `{}`, "release"},
		{"gitea", `{}`, "issues"},
		{"alertmanager", `{"alerts": []}`, ""},
		{"grafana", `{}`, ""},
		{"json", `{"unclosed": `, ""},
	}
	for _, tc := range cases {
		i, _ := Lookup(tc.integration)
		_, err := i.Convert(Request{Body: []byte(tc.body), Header: http.Header{"X-Gitea-Event": {tc.event}}})
		if !errors.Is(err, ErrPayload) {
			t.Errorf("%s %q (%s): %v, want a payload error", tc.integration, tc.body, tc.event, err)
		}
	}
}
