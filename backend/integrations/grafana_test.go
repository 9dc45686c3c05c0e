package integrations

import "testing"

func TestGrafana(t *testing.T) {
	runCases(t, "grafana", []convertCase{
		{name: "firing, Grafana 9", fixture: "grafana_alert.json", topic: "HighCPU",
			content: ":rotating_light: **[FIRING:1] HighCPU**\n* CPU above 90% on build1 `[ var='A' labels={instance=build1} value=93 ]` ([dashboard](http://grafana.lan/d/abc))"},
		{name: "resolved group of two rules", fixture: "grafana_resolved.json", topic: "",
			content: ":white_check_mark: **[RESOLVED]  (ops)**\n* The system has high memory usage `B=44.24, C=0`" +
				"\n* alertname=Disk latency, team=ops, zone=rack-2 ([dashboard](http://grafana.lan/d/disk))"},
		{name: "no title", topic: "Temp", body: `{"status": "firing", "commonLabels": {"alertname": "Temp"}, "alerts": [{"status": "firing", "labels": {"alertname": "Temp"}}]}`,
			content: ":rotating_light: **FIRING**\n* alertname=Temp"},
		{name: "no alerts", body: `{"title": "[FIRING:0]", "status": "firing"}`, err: "Missing 'alerts'"},
		{name: "not JSON", body: `[FIRING]`, err: "Malformed JSON"},
	})
}
