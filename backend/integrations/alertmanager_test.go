package integrations

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Payloads are as Alertmanager (v4 webhook) sends them; testdata/zulip
// holds fixtures recorded by Zulip's own integration tests.
func TestAlertmanager(t *testing.T) {
	cpuGraph := "http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0"
	runCases(t, "alertmanager", []convertCase{
		{name: "firing", fixture: "alertmanager_firing.json", topic: "DiskFull",
			content: ":rotating_light: **FIRING** DiskFull ×2 · severity **critical** · [Alertmanager](http://alertmanager.lan:9093)" +
				"\n* **DiskFull** instance=nas1:9100: /srv is 97% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n* **DiskFull** instance=nas2:9100: /srv is 95% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))"},
		{name: "resolved", fixture: "alertmanager_resolved.json", topic: "HostDown",
			content: ":white_check_mark: **RESOLVED** HostDown\n* **HostDown** instance=printer2"},
		{name: "one resolved in a firing group", topic: "Load",
			body: `{"version": "4", "status": "firing", "groupLabels": {"alertname": "Load"}, "alerts": [
				{"status": "firing", "labels": {"alertname": "Load", "instance": "a"}, "annotations": {"description": "load 9"}},
				{"status": "resolved", "labels": {"alertname": "Load", "instance": "b"}, "annotations": {"description": "load 1"}}]}`,
			content: ":rotating_light: **FIRING** Load · resolved: Load\n* **Load** instance=a: load 9\n* **Load** instance=b: load 1 (resolved)"},
		// No group_by: one group of every alert, whose topic must not
		// follow whichever alert comes first.
		{name: "several alert names, no group_by", fixture: "alertmanager_several_names.json", topic: "",
			content: ":rotating_light: **FIRING** DiskFull, HostDown · resolved: BackupFailed · [Alertmanager](http://am.lan:9093)" +
				"\n* **BackupFailed** instance=nas1:9100: Nightly backup failed (resolved) · warning ([graph](http://prom.lan:9090/graph?g0.expr=backup_ok+%3D%3D+0&g0.tab=0))" +
				"\n* **DiskFull** instance=nas1:9100: /srv is 97% full · critical ([graph](http://prom.lan:9090/graph?g0.expr=disk_used&g0.tab=0), [runbook](https://wiki.lan/runbooks/diskfull))" +
				"\n* **HostDown** instance=printer2:9100 · critical ([graph](http://prom.lan:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))"},
		{name: "grouped by other labels", topic: "cluster=prod, namespace=web",
			body: `{"version": "4", "status": "resolved", "groupLabels": {"namespace": "web", "cluster": "prod"}, "alerts": [
				{"status": "resolved", "labels": {"alertname": "PodNotReady", "cluster": "prod", "namespace": "web"}}]}`,
			content: ":white_check_mark: **RESOLVED** PodNotReady\n* **PodNotReady**"},
		// kube-prometheus rules share a summary and an instance: the pod
		// tells the alerts apart.
		{name: "alerts told apart by a label no rule shows", fixture: "alertmanager_crashlooping.json", topic: "KubePodCrashLooping, namespace=web",
			content: ":rotating_light: **FIRING** KubePodCrashLooping ×2 · severity **warning** · [runbook](https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping)" +
				"\n* **KubePodCrashLooping** pod=api-7d9f-x2x: Pod is crash looping. ([graph](http://prom.lan:9090/graph?g0.expr=kube_pod_restarts&g0.tab=0))" +
				"\n* **KubePodCrashLooping** pod=api-7d9f-q8r: Pod is crash looping. ([graph](http://prom.lan:9090/graph?g0.expr=kube_pod_restarts&g0.tab=0))"},
		// Zulip's fixture: two alerts with the same labels and summary;
		// their descriptions tell them apart.
		{name: "zulip fixture, no parameters", fixture: "zulip/alertmanager_alert.json", topic: "",
			content: ":rotating_light: **FIRING** High CPU Temperature ×2 · severity **critical** · [Alertmanager](http://ops1:9093)" +
				"\n* **High CPU Temperature**: CPU core temperature is 34.75C ([graph](" + cpuGraph + "))" +
				"\n* **High CPU Temperature**: CPU core temperature is 17.625C ([graph](" + cpuGraph + "))"},
		{name: "zulip fixture, name and desc", fixture: "zulip/alertmanager_alert.json", query: "name=topic&desc=description", topic: "andromeda",
			content: ":rotating_light: **FIRING** High CPU Temperature ×2 · severity **critical** · [Alertmanager](http://ops1:9093)" +
				"\n* CPU core temperature is 34.75C ([graph](" + cpuGraph + "))" +
				"\n* CPU core temperature is 17.625C ([graph](" + cpuGraph + "))"},
		{name: "zulip fixture, resolved, name and desc", fixture: "zulip/alertmanager_single_alert.json", query: "name=topic&desc=description", topic: "andromeda",
			content: ":white_check_mark: **RESOLVED** High CPU Temperature · severity **critical** · [Alertmanager](http://ops1:9093)" +
				"\n* CPU core temperature is 34.75C ([graph](" + cpuGraph + "))"},
		// name splits the group into topics, one message each; a field an
		// alert lacks is named, as Zulip does.
		{name: "name by label splits topics", query: "name=host&desc=alertname", topic: "db1",
			body: `{"version": "4", "status": "firing", "groupLabels": {}, "alerts": [
				{"status": "firing", "labels": {"alertname": "DiskFull", "host": "db1"}, "generatorURL": "http://thanos.lan/rule/1"},
				{"status": "firing", "labels": {"alertname": "HighLoad", "host": "db2"}},
				{"status": "resolved", "labels": {"alertname": "HostDown", "host": "db1"}},
				{"status": "firing", "labels": {"alertname": "Orphan"}}]}`,
			content: ":rotating_light: **FIRING** DiskFull · resolved: HostDown\n* DiskFull ([source](http://thanos.lan/rule/1))\n* HostDown (resolved)",
			more: []Message{
				{Topic: "db2", Content: ":rotating_light: **FIRING** HighLoad\n* HighLoad"},
				{Topic: "(unknown)", Content: ":rotating_light: **FIRING** Orphan\n* Orphan"}}},
		{name: "desc naming a missing field", query: "desc=summary", topic: "",
			body:    `{"version": "4", "status": "firing", "alerts": [{"status": "firing", "labels": {"alertname": "X"}}]}`,
			content: ":rotating_light: **FIRING** X\n* <missing field: summary>"},
		{name: "no optional fields at all", topic: "",
			body:    `{"alerts": [{"labels": {}}]}`,
			content: ":rotating_light: **FIRING** (no alertname)\n* **(no alertname)**"},
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
		if _, footer, found := strings.Cut(content, "\n\n_"); found {
			if _, err := fmt.Sscanf(footer, "%d more", &notShown); err != nil {
				t.Fatalf("%+v: footer %q", tc, footer)
			}
			if !strings.HasSuffix(footer, " not shown: see [Alertmanager](http://alertmanager.lan:9093)._") {
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
		":rotating_light: **FIRING** DiskFull",
		":rotating_light: **FIRING** BackupFailed · resolved: DiskFull",
		":white_check_mark: **RESOLVED** BackupFailed, DiskFull",
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
