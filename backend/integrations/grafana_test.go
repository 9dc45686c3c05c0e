package integrations

import "testing"

// Grafana sends Alertmanager's notification with its own fields added;
// testdata/zulip/grafana_alert_values_v11.json was recorded from Grafana
// 11 by Zulip's tests.
func TestGrafana(t *testing.T) {
	runCases(t, "grafana", []convertCase{
		{name: "firing, Grafana 9", fixture: "grafana_alert.json", topic: "HighCPU",
			content: ":rotating_light: **FIRING** `HighCPU` · [Grafana](http://grafana.lan/)" +
				"\n* `HighCPU` `instance=build1`: `CPU above 90% on build1` `[ var='A' labels={instance=build1} value=93 ]`" +
				" · since <time:2026-11-20T10:00:00Z> ([source](http://grafana.lan/alerting/grafana/cpu1/view), [dashboard](http://grafana.lan/d/abc))"},
		{name: "resolved group of two rules", fixture: "grafana_resolved.json", topic: "team=ops",
			content: ":white_check_mark: **RESOLVED** `High memory usage`, `Disk latency` · [Grafana](http://grafana.lan/)" +
				"\n* `High memory usage` `zone=rack-1`: `The system has high memory usage` `B=44.24, C=0` · started <time:2026-11-20T09:51:03Z> ([source](http://grafana.lan/alerting/mem1/edit))" +
				"\n* `Disk latency` `zone=rack-2` · started <time:2026-11-20T09:56:03Z> ([source](http://grafana.lan/alerting/disk1/edit), [dashboard](http://grafana.lan/d/disk))"},
		{name: "Grafana 11, values and valueString", fixture: "zulip/grafana_alert_values_v11.json", topic: "Memory (copy), grafana_folder=device",
			content: ":rotating_light: **FIRING** `Memory (copy)` · [Grafana](https://play.grafana.org/)" +
				"\n* `Memory (copy)`: `High memory usage` `A=2.474e+09, B=0, C=1, minute=9` · since <time:2024-03-01T02:09:00Z>" +
				" ([source](https://play.grafana.org/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1)," +
				" [dashboard](https://play.grafana.org/d/ece9fb32-7f71-4be9-bd94-2f23608ae5b9?orgId=1)," +
				" [silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DMemory+%28copy%29&matcher=debug%3Dtrue&matcher=grafana_folder%3Ddevice&orgId=1))"},
		// The contact point's "Test" button.
		{name: "test notification", topic: "",
			body: `{"receiver": "test", "status": "firing", "alerts": [{"status": "firing",
				"labels": {"alertname": "TestAlert", "instance": "Grafana"},
				"annotations": {"summary": "Notification test"}, "startsAt": "2026-11-23T10:00:00Z", "endsAt": "0001-01-01T00:00:00Z",
				"generatorURL": "", "fingerprint": "57c6d9296de2ad39", "silenceURL": "", "dashboardURL": "", "panelURL": "", "values": null, "valueString": "[ metric='foo' labels={instance=bar} value=10 ]"}],
				"groupLabels": {}, "commonLabels": {"alertname": "TestAlert", "instance": "Grafana"}, "commonAnnotations": {"summary": "Notification test"},
				"externalURL": "http://grafana.lan/", "version": "1", "groupKey": "{alertname=\"TestAlert\", instance=\"Grafana\"}2026-11-23 10:00:00", "truncatedAlerts": 0,
				"orgId": 1, "title": "[FIRING:1]  (TestAlert Grafana)", "state": "alerting", "message": "**Firing**"}`,
			content: ":rotating_light: **FIRING** `TestAlert` · [Grafana](http://grafana.lan/)" +
				"\n* `TestAlert` `instance=Grafana`: `Notification test` `[ metric='foo' labels={instance=bar} value=10 ]` · since <time:2026-11-23T10:00:00Z>"},
		{name: "no optional fields", topic: "", body: `{"alerts": [{"labels": {"alertname": "Temp"}}]}`,
			content: ":rotating_light: **FIRING** `Temp`\n* `Temp`"},
		// Grafana's legacy alerting (before 11) sent another shape.
		{name: "legacy alerting payload", body: `{"title": "[Alerting] CPU", "ruleId": 1, "ruleName": "CPU", "state": "alerting", "evalMatches": []}`, err: "Missing 'alerts'"},
		{name: "not JSON", body: `[FIRING]`, err: "Malformed JSON"},
	})
}
