package integrations

import (
	"sort"
	"strconv"
	"strings"
)

// grafana formats Grafana's alerting webhook. Its payload is
// Alertmanager's notification with more on each alert (the query values,
// the dashboard), so the message is Alertmanager's, with those added.
func init() {
	register(Integration{Name: "grafana", Client: "Grafana", DefaultTopic: "Grafana alerts", Convert: alertGroup("Grafana")})
}

// value is what Grafana's queries measured: values by query (Grafana 10
// and later, compact), else Grafana 9's valueString.
func (a amAlert) value() string {
	if len(a.Values) == 0 {
		return a.ValueString
	}
	var parts []string
	for query, v := range a.Values {
		parts = append(parts, query+"="+strconv.FormatFloat(v, 'g', 4, 64))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
