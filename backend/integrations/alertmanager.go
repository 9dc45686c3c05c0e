package integrations

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

// alertmanager formats Prometheus Alertmanager's webhook (version 4). A
// notification is one group of alerts, which may hold several alert names:
// its message is headlined by the whole group and filed under the group's
// labels, so the group's later notifications (resolved ones too) land in
// the same topic; each line names its alert and shows what tells it apart
// from the others, and when it started. Label and annotation values are
// shown as written, in code spans: they are the sender's text, not
// markdown (a path's asterisks, a link, a mention).
//
// Zulip's URL parameters are honoured as Zulip does: `name` is the label,
// else annotation, whose value is each alert's topic (alerts are posted
// per topic), and `desc` the one whose value is each alert's line.
func init() {
	register(Integration{Name: "alertmanager", Client: "Alertmanager", DefaultTopic: "Alertmanager", Convert: alertGroup("Alertmanager"),
		DisplayName: "Prometheus Alertmanager", Options: []ConfigOption{
			{Key: "name", Label: "Alert field whose value is the topic", Validator: "check_string"},
			{Key: "desc", Label: "Alert field that describes it", Validator: "check_string"},
		}})
}

type amAlert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     string            `json:"startsAt"`
	GeneratorURL string            `json:"generatorURL"`
	// Grafana's alerts say what was measured, where to look and how to
	// silence them.
	ValueString  string             `json:"valueString"`
	Values       map[string]float64 `json:"values"`
	DashboardURL string             `json:"dashboardURL"`
	SilenceURL   string             `json:"silenceURL"`
	// unsent stands for an alert of the group Alertmanager left out
	// (max_alerts), counted in the headline.
	unsent bool
}

// field is a label, else an annotation, as Zulip reads `name` and `desc`.
func (a amAlert) field(name string) (string, bool) {
	if v, ok := a.Labels[name]; ok {
		return v, true
	}
	v, ok := a.Annotations[name]
	return v, ok
}

func (a amAlert) firing() bool { return a.Status != "resolved" }

type amGroup struct {
	sender string // names ExternalURL's link
	// Status is the whole group's, alerts left out included.
	Status      string            `json:"status"`
	GroupLabels map[string]string `json:"groupLabels"`
	// CommonLabels are those every alert of the group shares, alerts left
	// out included.
	CommonLabels map[string]string `json:"commonLabels"`
	ExternalURL  string            `json:"externalURL"`
	// TruncatedAlerts counts the alerts Alertmanager left out itself
	// (the receiver's max_alerts).
	TruncatedAlerts int       `json:"truncatedAlerts"`
	Alerts          []amAlert `json:"alerts"`
}

// Lines longer than this are cut: one huge annotation must not push every
// other alert out of the message.
const maxAlertText = 400

// headlineNames bounds the alert names listed in a headline.
const headlineNames = 5

// alertGroup converts an Alertmanager-style notification from the named
// sender, whose externalURL is its own address.
func alertGroup(sender string) func(Request) ([]Message, error) {
	return func(r Request) ([]Message, error) { return alertMessages(r, sender) }
}

func alertMessages(r Request, sender string) ([]Message, error) {
	g := amGroup{sender: sender}
	if err := decode(r, &g); err != nil {
		return nil, err
	}
	if len(g.Alerts) == 0 {
		return nil, payloadError("Missing 'alerts'")
	}
	desc := r.Query.Get("desc")
	nameField := r.Query.Get("name")
	if nameField == "" {
		return []Message{{Topic: groupTopic(g.GroupLabels), Content: g.render(g.Alerts, g.TruncatedAlerts, desc, r.MaxContent)}}, nil
	}
	var topics []string
	byTopic := map[string][]amAlert{}
	for _, a := range g.Alerts {
		topic, ok := a.field(nameField)
		if !ok {
			topic = "(unknown)"
		}
		if _, seen := byTopic[topic]; !seen {
			topics = append(topics, topic)
		}
		byTopic[topic] = append(byTopic[topic], a)
	}
	var out []Message
	for i, topic := range topics {
		// Alerts Alertmanager left out have no topic we know: the first
		// message owns up to them.
		truncated := 0
		if i == 0 {
			truncated = g.TruncatedAlerts
		}
		out = append(out, Message{Topic: topic, Content: g.render(byTopic[topic], truncated, desc, r.MaxContent)})
	}
	return out, nil
}

// groupTopic names a group by what Alertmanager grouped it by (group_by),
// which stays the same while alerts join and leave it: the alert name
// first, then the other labels. A group of everything (no group_by) goes
// to the default topic.
func groupTopic(labels map[string]string) string {
	var parts []string
	if name, ok := labels["alertname"]; ok {
		parts = append(parts, name)
	}
	return strings.Join(append(parts, labelList(labels, "alertname")...), ", ")
}

// render is one message for alerts of the group: a headline describing
// them all, then one line per alert until the message would grow past
// limit, then how many were not shown (including those Alertmanager left
// out).
func (g amGroup) render(alerts []amAlert, truncated int, desc string, limit int) string {
	severity := common(alerts, func(a amAlert) string { return a.Labels["severity"] })
	runbook := common(alerts, func(a amAlert) string { return a.Annotations["runbook_url"] })
	distinct := distinctLabels(alerts)
	text := alertText(alerts)
	anyFiring := slices.ContainsFunc(alerts, amAlert.firing)

	var b strings.Builder
	b.WriteString(headline(append(alerts, g.unsent(truncated)...)))
	if severity != "" {
		fmt.Fprintf(&b, " · severity %s", literal(severity))
	}
	if runbook != "" {
		fmt.Fprintf(&b, " · [runbook](%s)", linkTarget(runbook))
	}
	if g.ExternalURL != "" {
		fmt.Fprintf(&b, " · [%s](%s)", g.sender, linkTarget(g.ExternalURL))
	}
	// Room for the closing count, so it always fits.
	const footerRoom = 200
	shown := 0
	for _, a := range alerts {
		var line strings.Builder
		line.WriteString("\n* ")
		if desc != "" {
			if v, ok := a.field(desc); ok {
				line.WriteString(literal(cut(v)))
			} else {
				line.WriteString("<missing field: " + literal(desc) + ">")
			}
		} else {
			line.WriteString(a.name())
			if kv := labelList(pick(a.Labels, distinct), ""); len(kv) > 0 {
				line.WriteString(" " + literal(strings.Join(kv, " ")))
			}
			if t := text(a); t != "" {
				line.WriteString(": " + literal(cut(t)))
			}
		}
		if v := a.value(); v != "" {
			line.WriteString(" " + literal(cut(v)))
		}
		if anyFiring && !a.firing() {
			line.WriteString(" (resolved)")
		}
		if severity == "" && a.Labels["severity"] != "" {
			line.WriteString(" · " + literal(a.Labels["severity"]))
		}
		if started, ok := startTime(a.StartsAt); ok && a.firing() {
			fmt.Fprintf(&line, " · since <time:%s>", started)
		} else if ok {
			fmt.Fprintf(&line, " · started <time:%s>", started)
		}
		var links []string
		if a.GeneratorURL != "" {
			links = append(links, generatorLink(a.GeneratorURL))
		}
		if a.DashboardURL != "" {
			links = append(links, fmt.Sprintf("[dashboard](%s)", linkTarget(a.DashboardURL)))
		}
		if u := a.Annotations["runbook_url"]; runbook == "" && u != "" {
			links = append(links, fmt.Sprintf("[runbook](%s)", linkTarget(u)))
		}
		if a.SilenceURL != "" && a.firing() {
			links = append(links, fmt.Sprintf("[silence](%s)", linkTarget(a.SilenceURL)))
		}
		if len(links) > 0 {
			fmt.Fprintf(&line, " (%s)", strings.Join(links, ", "))
		}
		if limit > 0 && b.Len()+line.Len() > limit-footerRoom {
			break
		}
		b.WriteString(line.String())
		shown++
	}
	if notShown := len(alerts) - shown + truncated; notShown > 0 {
		fmt.Fprintf(&b, "\n\n*%d more %s not shown", notShown, plural(notShown, "alert", "alerts"))
		if g.ExternalURL != "" {
			fmt.Fprintf(&b, ": see [%s](%s)", g.sender, linkTarget(g.ExternalURL))
		}
		b.WriteString(".*")
	}
	return b.String()
}

// unsent stands for the n alerts of the group Alertmanager left out, so
// that the headline counts them: under the name every alert of the group
// shares, if any, and as firing while the group fires.
func (g amGroup) unsent(n int) []amAlert {
	name := cmpOr(g.CommonLabels["alertname"], g.GroupLabels["alertname"])
	out := make([]amAlert, n)
	for i := range out {
		out[i] = amAlert{Status: g.Status, Labels: map[string]string{"alertname": name}, unsent: name == ""}
	}
	return out
}

// name is how a line or the headline names the alert.
func (a amAlert) name() string {
	switch {
	case a.unsent:
		return "(not sent)"
	case a.Labels["alertname"] == "":
		return "(no alertname)"
	}
	return literal(a.Labels["alertname"])
}

// headline says whether anything still fires and names every alert of
// the group, firing ones first, with counts where a name has several.
func headline(alerts []amAlert) string {
	var firing, resolved []amAlert
	for _, a := range alerts {
		if a.firing() {
			firing = append(firing, a)
		} else {
			resolved = append(resolved, a)
		}
	}
	if len(firing) == 0 {
		return statusEmoji("resolved") + " **RESOLVED** " + alertNames(resolved)
	}
	h := statusEmoji("firing") + " **FIRING** " + alertNames(firing)
	if len(resolved) > 0 {
		h += " · resolved: " + alertNames(resolved)
	}
	return h
}

// alertNames lists the distinct alert names in order of appearance, as
// "Name" or "Name ×3".
func alertNames(alerts []amAlert) string {
	var names []string
	count := map[string]int{}
	for _, a := range alerts {
		n := a.name()
		if count[n] == 0 {
			names = append(names, n)
		}
		count[n]++
	}
	var parts []string
	for _, n := range names[:min(len(names), headlineNames)] {
		if count[n] > 1 {
			n = fmt.Sprintf("%s ×%d", n, count[n])
		}
		parts = append(parts, n)
	}
	if more := len(names) - headlineNames; more > 0 {
		parts = append(parts, fmt.Sprintf("%d more", more))
	}
	return strings.Join(parts, ", ")
}

// distinctLabels are the labels whose values tell the alerts apart (those
// not shared by all of them), less the name and severity, shown on their
// own. A lone alert is told by its instance.
func distinctLabels(alerts []amAlert) []string {
	if len(alerts) == 1 {
		if _, ok := alerts[0].Labels["instance"]; ok {
			return []string{"instance"}
		}
		return nil
	}
	var keys []string
	for _, a := range alerts {
		for k := range a.Labels {
			if k == "alertname" || k == "severity" || slices.Contains(keys, k) {
				continue
			}
			if common(alerts, func(a amAlert) string { return a.Labels[k] }) == "" {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// alertText chooses each line's words: the summary, unless every alert
// has the same one and their descriptions differ (rules often share a
// summary), then the description.
func alertText(alerts []amAlert) func(amAlert) string {
	summary := func(a amAlert) string { return a.Annotations["summary"] }
	description := func(a amAlert) string { return a.Annotations["description"] }
	if len(alerts) > 1 && common(alerts, summary) != "" && common(alerts, description) == "" {
		return func(a amAlert) string { return cmpOr(description(a), summary(a)) }
	}
	return func(a amAlert) string { return cmpOr(summary(a), description(a)) }
}

// common is the value every alert has for f, or "".
func common(alerts []amAlert, f func(amAlert) string) string {
	v := f(alerts[0])
	for _, a := range alerts[1:] {
		if f(a) != v {
			return ""
		}
	}
	return v
}

// generatorLink labels a rule's link as what it is. Prometheus links to
// its table tab (g0.tab=1); the graph tab (0) is what "graph" promises.
func generatorLink(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || !strings.HasSuffix(u.Path, "/graph") {
		return fmt.Sprintf("[source](%s)", linkTarget(raw))
	}
	q := u.Query()
	for k, v := range q {
		if strings.HasSuffix(k, ".tab") && len(v) == 1 && (v[0] == "1" || v[0] == "table") {
			q.Set(k, "0")
		}
	}
	u.RawQuery = q.Encode()
	return fmt.Sprintf("[graph](%s)", linkTarget(u.String()))
}

// startTime is an alert's start as <time:…> takes it, if the sender gave
// one (Alertmanager's zero time means none).
func startTime(raw string) (string, bool) {
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil || t.Year() < 2000 {
		return "", false
	}
	return t.UTC().Format(time.RFC3339), true
}

// literal shows text exactly, as a code span: delimited by one backtick
// more than its longest run of them, spaced from a backtick at either end
// (our code spans keep their spaces, as Zulip's do).
func literal(text string) string {
	if text == "" {
		return ""
	}
	fence := codeFence(text, 1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		text = " " + text + " "
	}
	return fence + text + fence
}

// linkTarget keeps a sender's URL inside a markdown link's parentheses.
var linkTarget = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "\n", "%0A").Replace

func statusEmoji(status string) string {
	if status == "resolved" || status == "ok" {
		return ":white_check_mark:"
	}
	return ":rotating_light:"
}

// labelList is labels as sorted key=value pairs, less the one skipped.
func labelList(labels map[string]string, skip string) []string {
	var parts []string
	for k, v := range labels {
		if k != skip {
			parts = append(parts, k+"="+v)
		}
	}
	sort.Strings(parts)
	return parts
}

// pick is the labels named by keys.
func pick(labels map[string]string, keys []string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if v, ok := labels[k]; ok {
			out[k] = v
		}
	}
	return out
}

// cut shortens text to maxAlertText runes, on one line.
func cut(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > maxAlertText {
		return string(r[:maxAlertText]) + "…"
	}
	return text
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
