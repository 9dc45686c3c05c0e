package integrations

import (
	"fmt"
	"sort"
	"strings"
)

// alertmanager formats Prometheus Alertmanager's webhook (version 4): one
// line per alert, firing or resolved, linked to its graph.
func init() {
	register(Integration{Name: "alertmanager", Client: "Alertmanager", DefaultTopic: "Alertmanager", Convert: alertmanager})
}

func alertmanager(r Request) (Message, error) {
	var p struct {
		Status      string            `json:"status"`
		GroupLabels map[string]string `json:"groupLabels"`
		Alerts      []struct {
			Status       string            `json:"status"`
			Labels       map[string]string `json:"labels"`
			Annotations  map[string]string `json:"annotations"`
			GeneratorURL string            `json:"generatorURL"`
		} `json:"alerts"`
	}
	if err := decode(r, &p); err != nil {
		return Message{}, err
	}
	if len(p.Alerts) == 0 {
		return Message{}, payloadError("Missing 'alerts'")
	}
	name := p.GroupLabels["alertname"]
	if name == "" {
		name = p.Alerts[0].Labels["alertname"]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s **%s** %s", statusEmoji(p.Status), strings.ToUpper(p.Status), name)
	for _, a := range p.Alerts {
		what := a.Annotations["summary"]
		if what == "" {
			what = a.Annotations["description"]
		}
		if what == "" {
			what = labelList(a.Labels)
		}
		fmt.Fprintf(&b, "\n* %s: %s", cmpOr(a.Labels["instance"], a.Labels["alertname"]), what)
		if a.Status != p.Status {
			fmt.Fprintf(&b, " (%s)", a.Status)
		}
		if a.GeneratorURL != "" {
			fmt.Fprintf(&b, " ([graph](%s))", a.GeneratorURL)
		}
	}
	return Message{Topic: name, Content: b.String()}, nil
}

func statusEmoji(status string) string {
	if status == "resolved" || status == "ok" {
		return ":white_check_mark:"
	}
	return ":rotating_light:"
}

func labelList(labels map[string]string) string {
	var parts []string
	for k, v := range labels {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
