package integrations

import (
	"fmt"
	"strings"
)

// grafana formats Grafana's unified alerting webhook.
func init() {
	register(Integration{Name: "grafana", DefaultTopic: "Grafana alerts", Convert: grafana})
}

func grafana(r Request) (Message, error) {
	var p struct {
		Title   string `json:"title"`
		Status  string `json:"status"`
		Message string `json:"message"`
		Alerts  []struct {
			Status       string            `json:"status"`
			Labels       map[string]string `json:"labels"`
			Annotations  map[string]string `json:"annotations"`
			ValueString  string            `json:"valueString"`
			DashboardURL string            `json:"dashboardURL"`
		} `json:"alerts"`
	}
	if err := decode(r, &p); err != nil {
		return Message{}, err
	}
	if p.Title == "" && len(p.Alerts) == 0 {
		return Message{}, payloadError("Missing 'title' and 'alerts'")
	}
	topic := p.Title
	if len(p.Alerts) > 0 && p.Alerts[0].Labels["alertname"] != "" {
		topic = p.Alerts[0].Labels["alertname"]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s **%s**", statusEmoji(p.Status), p.Title)
	for _, a := range p.Alerts {
		fmt.Fprintf(&b, "\n* %s", cmpOr(a.Annotations["summary"], labelList(a.Labels)))
		if a.ValueString != "" {
			fmt.Fprintf(&b, " `%s`", a.ValueString)
		}
		if a.DashboardURL != "" {
			fmt.Fprintf(&b, " ([dashboard](%s))", a.DashboardURL)
		}
	}
	return Message{Topic: topic, Content: b.String()}, nil
}
