package integrations

import "testing"

func TestAlertmanager(t *testing.T) {
	runCases(t, "alertmanager", []convertCase{
		{name: "firing", fixture: "alertmanager_firing.json", topic: "DiskFull",
			content: ":rotating_light: **FIRING** DiskFull\n* nas1:9100: /srv is 97% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))" +
				"\n* nas2:9100: /srv is 95% full ([graph](http://prometheus.lan:9090/graph?g0.expr=disk_used))"},
		{name: "resolved", fixture: "alertmanager_resolved.json", topic: "HostDown",
			content: ":white_check_mark: **RESOLVED** HostDown\n* printer2: alertname=HostDown, instance=printer2"},
		{name: "one resolved in a firing group", topic: "Load",
			body: `{"version": "4", "status": "firing", "groupLabels": {}, "alerts": [
				{"status": "firing", "labels": {"alertname": "Load", "instance": "a"}, "annotations": {"description": "load 9"}},
				{"status": "resolved", "labels": {"alertname": "Load", "instance": "b"}, "annotations": {"description": "load 1"}}]}`,
			content: ":rotating_light: **FIRING** Load\n* a: load 9\n* b: load 1 (resolved)"},
		{name: "no alerts", body: `{"version": "4", "status": "firing", "alerts": []}`, err: "Missing 'alerts'"},
		{name: "not JSON", body: `<html>`, err: "Malformed JSON"},
	})
}
