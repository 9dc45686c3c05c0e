package integrations

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// grafana formats Grafana's unified alerting webhook: one line per alert,
// with its value and a link to its dashboard.
func init() {
	register(Integration{Name: "grafana", Client: "Grafana", DefaultTopic: "Grafana alerts", Convert: grafana})
}

type grafanaAlert struct {
	Status      string            `json:"status"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	// Grafana 9 sends valueString; later releases send values, by query.
	ValueString  string             `json:"valueString"`
	Values       map[string]float64 `json:"values"`
	DashboardURL string             `json:"dashboardURL"`
}

func grafana(r Request) ([]Message, error) {
	var p struct {
		Title        string            `json:"title"`
		Status       string            `json:"status"`
		CommonLabels map[string]string `json:"commonLabels"`
		Alerts       []grafanaAlert    `json:"alerts"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	if len(p.Alerts) == 0 {
		return nil, payloadError("Missing 'alerts'")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s **%s**", statusEmoji(p.Status), cmpOr(p.Title, strings.ToUpper(p.Status)))
	for _, a := range p.Alerts {
		fmt.Fprintf(&b, "\n* %s", cmpOr(cmpOr(a.Annotations["summary"], a.Annotations["description"]), strings.Join(labelList(a.Labels, ""), ", ")))
		if a.Status != p.Status {
			fmt.Fprintf(&b, " (%s)", a.Status)
		}
		if v := a.value(); v != "" {
			fmt.Fprintf(&b, " `%s`", v)
		}
		if a.DashboardURL != "" {
			fmt.Fprintf(&b, " ([dashboard](%s))", a.DashboardURL)
		}
	}
	// Alerts grouped under one rule share a topic, so "resolved" follows
	// "firing"; a mixed group goes to the default topic.
	return []Message{{Topic: p.CommonLabels["alertname"], Content: b.String()}}, nil
}

func (a grafanaAlert) value() string {
	if a.ValueString != "" {
		return a.ValueString
	}
	var parts []string
	for query, v := range a.Values {
		parts = append(parts, query+"="+strconv.FormatFloat(v, 'g', 4, 64))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
