package integrations

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"lanchat/markdown"
)

// Payloads are as Alertmanager (v4 webhook) sends them; testdata/zulip
// holds fixtures recorded by Zulip's own integration tests.
func TestAlertmanager(t *testing.T) {
	fsGraph := "http://prometheus.lan:9090/graph?g0.expr=node_filesystem_avail_bytes%7Bjob%3D%22node%22%7D&g0.tab=0"
	cpuGraph := "http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0"
	runCases(t, "alertmanager", []convertCase{
		{name: "firing", fixture: "alertmanager_firing.json", topic: "DiskFull",
			content: ":rotating_light: **FIRING** `DiskFull` ×2 · severity `critical` · [Alertmanager](http://alertmanager.lan:9093)" +
				"\n* `DiskFull` `instance=nas1:9100`: `/srv is 97% full` · since <time:2026-11-20T10:00:00Z> ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n* `DiskFull` `instance=nas2:9100`: `/srv is 95% full` · since <time:2026-11-20T10:01:00Z> ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))"},
		{name: "resolved", fixture: "alertmanager_resolved.json", topic: "HostDown",
			content: ":white_check_mark: **RESOLVED** `HostDown`\n* `HostDown` `instance=printer2` · started <time:2026-11-20T09:00:00Z>"},
		{name: "one resolved in a firing group", topic: "Load",
			body: `{"version": "4", "status": "firing", "groupLabels": {"alertname": "Load"}, "alerts": [
				{"status": "firing", "labels": {"alertname": "Load", "instance": "a"}, "annotations": {"description": "load 9"}},
				{"status": "resolved", "labels": {"alertname": "Load", "instance": "b"}, "annotations": {"description": "load 1"}}]}`,
			content: ":rotating_light: **FIRING** `Load` · resolved: `Load`\n* `Load` `instance=a`: `load 9`\n* `Load` `instance=b`: `load 1` (resolved)"},
		// No group_by: one group of every alert, whose topic must not
		// follow whichever alert comes first.
		{name: "several alert names, no group_by", fixture: "alertmanager_several_names.json", topic: "",
			content: ":rotating_light: **FIRING** `DiskFull`, `HostDown` · resolved: `BackupFailed` · [Alertmanager](http://am.lan:9093)" +
				"\n* `BackupFailed` `instance=nas1:9100`: `Nightly backup failed` (resolved) · `warning` ([graph](http://prom.lan:9090/graph?g0.expr=backup_ok+%3D%3D+0&g0.tab=0))" +
				"\n* `DiskFull` `instance=nas1:9100`: `/srv is 97% full` · `critical` ([graph](http://prom.lan:9090/graph?g0.expr=disk_used&g0.tab=0), [runbook](https://wiki.lan/runbooks/diskfull))" +
				"\n* `HostDown` `instance=printer2:9100` · `critical` ([graph](http://prom.lan:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))"},
		{name: "grouped by other labels", topic: "cluster=prod, namespace=web",
			body: `{"version": "4", "status": "resolved", "groupLabels": {"namespace": "web", "cluster": "prod"}, "alerts": [
				{"status": "resolved", "labels": {"alertname": "PodNotReady", "cluster": "prod", "namespace": "web"}}]}`,
			content: ":white_check_mark: **RESOLVED** `PodNotReady`\n* `PodNotReady`"},
		// kube-prometheus rules share a summary and an instance: the pod
		// tells the alerts apart.
		{name: "alerts told apart by a label no rule shows", fixture: "alertmanager_crashlooping.json", topic: "KubePodCrashLooping, namespace=web",
			content: ":rotating_light: **FIRING** `KubePodCrashLooping` ×2 · severity `warning` · [runbook](https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping)" +
				"\n* `KubePodCrashLooping` `pod=api-7d9f-x2x`: `Pod is crash looping.` ([graph](http://prom.lan:9090/graph?g0.expr=kube_pod_restarts&g0.tab=0))" +
				"\n* `KubePodCrashLooping` `pod=api-7d9f-q8r`: `Pod is crash looping.` ([graph](http://prom.lan:9090/graph?g0.expr=kube_pod_restarts&g0.tab=0))"},
		// Zulip's fixture: two alerts with the same labels and summary;
		// their descriptions tell them apart.
		{name: "zulip fixture, no parameters", fixture: "zulip/alertmanager_alert.json", topic: "",
			content: ":rotating_light: **FIRING** `High CPU Temperature` ×2 · severity `critical` · [Alertmanager](http://ops1:9093)" +
				"\n* `High CPU Temperature`: `CPU core temperature is 34.75C` · since <time:2020-02-06T00:17:58Z> ([graph](" + cpuGraph + "))" +
				"\n* `High CPU Temperature`: `CPU core temperature is 17.625C` · since <time:2020-02-06T00:17:58Z> ([graph](" + cpuGraph + "))"},
		{name: "zulip fixture, name and desc", fixture: "zulip/alertmanager_alert.json", query: "name=topic&desc=description", topic: "andromeda",
			content: ":rotating_light: **FIRING** `High CPU Temperature` ×2 · severity `critical` · [Alertmanager](http://ops1:9093)" +
				"\n* `CPU core temperature is 34.75C` · since <time:2020-02-06T00:17:58Z> ([graph](" + cpuGraph + "))" +
				"\n* `CPU core temperature is 17.625C` · since <time:2020-02-06T00:17:58Z> ([graph](" + cpuGraph + "))"},
		{name: "zulip fixture, resolved, name and desc", fixture: "zulip/alertmanager_single_alert.json", query: "name=topic&desc=description", topic: "andromeda",
			content: ":white_check_mark: **RESOLVED** `High CPU Temperature` · severity `critical` · [Alertmanager](http://ops1:9093)" +
				"\n* `CPU core temperature is 34.75C` · started <time:2020-02-06T00:17:58Z> ([graph](" + cpuGraph + "))"},
		// name splits the group into topics, one message each; a field an
		// alert lacks is named, as Zulip does.
		{name: "name by label splits topics", query: "name=host&desc=alertname", topic: "db1",
			body: `{"version": "4", "status": "firing", "groupLabels": {}, "alerts": [
				{"status": "firing", "labels": {"alertname": "DiskFull", "host": "db1"}, "generatorURL": "http://thanos.lan/rule/1"},
				{"status": "firing", "labels": {"alertname": "HighLoad", "host": "db2"}},
				{"status": "resolved", "labels": {"alertname": "HostDown", "host": "db1"}},
				{"status": "firing", "labels": {"alertname": "Orphan"}}]}`,
			content: ":rotating_light: **FIRING** `DiskFull` · resolved: `HostDown`\n* `DiskFull` ([source](http://thanos.lan/rule/1))\n* `HostDown` (resolved)",
			more: []Message{
				{Topic: "db2", Content: ":rotating_light: **FIRING** `HighLoad`\n* `HighLoad`"},
				{Topic: "(unknown)", Content: ":rotating_light: **FIRING** `Orphan`\n* `Orphan`"}}},
		{name: "desc naming a missing field", query: "desc=summary", topic: "",
			body:    `{"version": "4", "status": "firing", "alerts": [{"status": "firing", "labels": {"alertname": "X"}}]}`,
			content: ":rotating_light: **FIRING** `X`\n* <missing field: `summary`>"},
		{name: "no optional fields at all", topic: "",
			body:    `{"alerts": [{"labels": {}}]}`,
			content: ":rotating_light: **FIRING** (no alertname)\n* (no alertname)"},
		// node_exporter's disk alert with a hostile mount point and
		// description: values are shown as written, in code spans.
		{name: "values are not markdown", fixture: "alertmanager_markdown_values.json", topic: "NodeFilesystemAlmostOutOfSpace",
			content: ":rotating_light: **FIRING** `NodeFilesystemAlmostOutOfSpace` ×2 · severity `warning` · [Alertmanager](http://alertmanager.lan:9093)" +
				"\n* `NodeFilesystemAlmostOutOfSpace` `device=/dev/sdb1 mountpoint=/var/lib/*data*`: ```Filesystem on /dev/sdb1 at nas1:9100 has only 4.8% available space left; ask @**all** to see [the runbook](http://wiki.lan/disk) and `df -h` output with ``quotes``.```" +
				" · since <time:2026-11-21T08:14:30Z> ([graph](" + fsGraph + "))" +
				"\n* `NodeFilesystemAlmostOutOfSpace` `device=/dev/sdc1 mountpoint=[x](http://evil.lan/)`: `Filesystem on /dev/sdc1 at nas1:9100 has only 3.1% available space left.`" +
				" · since <time:2026-11-21T08:15:00Z> ([graph](" + fsGraph + "))"},
		// max_alerts: 2 sent of the group's 5, all DiskFull (its group
		// label): the headline counts the 5.
		{name: "alerts left out are counted", fixture: "alertmanager_max_alerts.json", topic: "DiskFull",
			content: ":rotating_light: **FIRING** `DiskFull` ×5 · severity `critical` · [Alertmanager](http://alertmanager.lan:9093)" +
				"\n* `DiskFull` `instance=nas1:9100`: `/srv is 97% full` · since <time:2026-11-20T10:00:00Z> ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n* `DiskFull` `instance=nas2:9100`: `/srv is 95% full` · since <time:2026-11-20T10:01:00Z> ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n\n*3 more alerts not shown: see [Alertmanager](http://alertmanager.lan:9093).*"},
		{name: "alerts of no common name left out", topic: "",
			body:    `{"status": "firing", "truncatedAlerts": 2, "alerts": [{"status": "firing", "labels": {"alertname": "A"}}]}`,
			content: ":rotating_light: **FIRING** `A`, (not sent) ×2\n* `A`\n\n*2 more alerts not shown.*"},
		{name: "no alerts", body: `{"version": "4", "status": "firing", "alerts": []}`, err: "Missing 'alerts'"},
		{name: "not JSON", body: `<html>`, err: "Malformed JSON"},
		{name: "labels of the wrong type", body: `{"alerts": [{"labels": ["a"]}]}`, err: "Malformed JSON"},
	})
}

// diskFullGroup is a notification of n firing DiskFull alerts, one per host,
// of which Alertmanager left out truncated (its max_alerts).
func diskFullGroup(n, truncated int) []byte {
	type alert struct {
		Status       string            `json:"status"`
		Labels       map[string]string `json:"labels"`
		Annotations  map[string]string `json:"annotations"`
		GeneratorURL string            `json:"generatorURL"`
	}
	var alerts []alert
	for i := range n {
		host := fmt.Sprintf("node%03d.lan:9100", i)
		alerts = append(alerts, alert{Status: "firing",
			Labels:       map[string]string{"alertname": "DiskFull", "instance": host, "severity": "critical"},
			Annotations:  map[string]string{"summary": "/srv on " + host + " is 97% full"},
			GeneratorURL: "http://prometheus.lan:9090/graph?g0.expr=node_filesystem_avail_bytes&g0.tab=1"})
	}
	body, _ := json.Marshal(map[string]any{"version": "4", "status": "firing", "groupLabels": map[string]string{"alertname": "DiskFull"},
		"externalURL": "http://alertmanager.lan:9093", "truncatedAlerts": truncated, "alerts": alerts})
	return body
}

// A group too large for one message shows what fits and counts the rest,
// with those Alertmanager left out, so every alert is either shown or
// counted.
func TestAlertmanagerLargeGroupSaysHowManyAreNotShown(t *testing.T) {
	i, _ := Lookup("alertmanager")
	for _, tc := range []struct{ alerts, truncated int }{{150, 0}, {150, 20}, {3, 1}, {3, 0}} {
		msgs, err := i.Convert(Request{Body: diskFullGroup(tc.alerts, tc.truncated), MaxContent: serverLimit})
		if err != nil || len(msgs) != 1 {
			t.Fatalf("%+v: %v, %d messages", tc, err, len(msgs))
		}
		content := msgs[0].Content
		if len(content) > serverLimit {
			t.Errorf("%+v: %d bytes, over the limit", tc, len(content))
		}
		shown := strings.Count(content, "\n* ")
		notShown := 0
		if _, footer, found := strings.Cut(content, "\n\n*"); found {
			if _, err := fmt.Sscanf(footer, "%d more", &notShown); err != nil {
				t.Fatalf("%+v: footer %q", tc, footer)
			}
			if !strings.HasSuffix(footer, " not shown: see [Alertmanager](http://alertmanager.lan:9093).*") {
				t.Errorf("%+v: footer %q", tc, footer)
			}
		}
		if shown+notShown != tc.alerts+tc.truncated || (tc.alerts > 100 && shown < 50) {
			t.Errorf("%+v: %d shown and %d counted", tc, shown, notShown)
		}
	}
}

// A group's notifications, as its alerts come, go and resolve, all land
// in one topic, and the last one says everything resolved.
func TestAlertmanagerGroupKeepsItsTopic(t *testing.T) {
	i, _ := Lookup("alertmanager")
	deliveries := []string{
		`{"status": "firing", "groupLabels": {"cluster": "prod"}, "alerts": [
			{"status": "firing", "labels": {"alertname": "DiskFull", "cluster": "prod", "instance": "a"}}]}`,
		`{"status": "firing", "groupLabels": {"cluster": "prod"}, "alerts": [
			{"status": "firing", "labels": {"alertname": "BackupFailed", "cluster": "prod", "instance": "b"}},
			{"status": "resolved", "labels": {"alertname": "DiskFull", "cluster": "prod", "instance": "a"}}]}`,
		`{"status": "resolved", "groupLabels": {"cluster": "prod"}, "alerts": [
			{"status": "resolved", "labels": {"alertname": "BackupFailed", "cluster": "prod", "instance": "b"}},
			{"status": "resolved", "labels": {"alertname": "DiskFull", "cluster": "prod", "instance": "a"}}]}`,
	}
	headlines := []string{
		":rotating_light: **FIRING** `DiskFull`",
		":rotating_light: **FIRING** `BackupFailed` · resolved: `DiskFull`",
		":white_check_mark: **RESOLVED** `BackupFailed`, `DiskFull`",
	}
	for n, body := range deliveries {
		msgs, err := i.Convert(Request{Body: []byte(body), MaxContent: serverLimit})
		if err != nil || len(msgs) != 1 {
			t.Fatalf("delivery %d: %v, %d messages", n, err, len(msgs))
		}
		headline, _, _ := strings.Cut(msgs[0].Content, "\n")
		if msgs[0].Topic != "cluster=prod" || headline != headlines[n] {
			t.Errorf("delivery %d: topic %q, headline %q, want %q", n, msgs[0].Topic, headline, headlines[n])
		}
	}
}

// literal shows any text exactly in our markdown, backticks included.
func TestLiteral(t *testing.T) {
	r := markdown.New()
	for _, text := range []string{"plain", "/var/lib/*data*", "a `b` c", "``x``", "`start", "end`", "@**all**", "[x](http://evil.lan/)", "<b>"} {
		html := r.Render(literal(text), nil, nil).HTML
		code, _ := strings.CutPrefix(strings.TrimSpace(html), "<p><code>")
		code, _ = strings.CutSuffix(code, "</code></p>")
		if strings.TrimSpace(code) != strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(text) {
			t.Errorf("%q renders %s", text, html)
		}
	}
}

// What the alerts' messages mean once rendered: values as written (no
// link, no mention, asterisks kept), start times as times, the note on
// alerts not shown in italics (our dialect, like Zulip's, leaves _x_ be).
func TestAlertMessagesRenderAsMeant(t *testing.T) {
	i, _ := Lookup("alertmanager")
	r := markdown.New()
	render := func(fixture string) string {
		body, err := os.ReadFile("testdata/" + fixture)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := i.Convert(Request{Body: body, MaxContent: serverLimit})
		if err != nil {
			t.Fatal(err)
		}
		return r.Render(msgs[0].Content, nil, nil).HTML
	}
	html := render("alertmanager_markdown_values.json")
	for _, want := range []string{"<code>device=/dev/sdb1 mountpoint=/var/lib/*data*</code>", "<code>device=/dev/sdc1 mountpoint=[x](http://evil.lan/)</code>",
		"ask @**all** to see [the runbook](http://wiki.lan/disk) and `df -h` output with ``quotes``.</code>", `<time datetime="2026-11-21T08:14:30Z">`} {
		if !strings.Contains(html, want) {
			t.Errorf("missing %s in\n%s", want, html)
		}
	}
	if strings.Contains(html, "evil.lan/\"") || strings.Contains(html, "wiki.lan/disk\"") {
		t.Errorf("a value became a link:\n%s", html)
	}
	if html := render("alertmanager_max_alerts.json"); !strings.Contains(html, "<em>3 more alerts not shown") {
		t.Errorf("the note is not in italics:\n%s", html)
	}
}
