package markdown

import (
	"reflect"
	"testing"
)

// TestRenderReports checks what rendering reports for flags and narrows.
func TestRenderReports(t *testing.T) {
	cases := []struct {
		in   string
		want Result
	}{
		{"hi @**Full Name** and @**Ada Admin** and @**full name|12**", Result{MentionedUserIDs: []int64{12, 13}}},
		{"@_**Full Name** silently", Result{}},
		{"> @**Full Name** quoted", Result{}},
		{"```quote\n@**Full Name** @*grp* @**all**\n```", Result{}},
		{"@**Gone Person**", Result{}},
		{"@**Nobody**", Result{}},
		{"@*grp* meeting, @*GRP* again", Result{MentionedGroupIDs: []int64{7}}},
		{"@_*grp*", Result{}},
		{"@**all** @**topic**", Result{StreamWildcard: true, TopicWildcard: true}},
		{"@**everyone**", Result{StreamWildcard: true}},
		{"@_**channel** @_**topic**", Result{}},
		{"```spoiler\n@**Ada Admin**\n```", Result{MentionedUserIDs: []int64{13}}},
		{"`@**Full Name**` in code", Result{}},
		{"/me dances", Result{IsMeMessage: true}},
		{"/me dances\nand sings", Result{IsMeMessage: true}},
		{"/me dances\n\nsecond paragraph", Result{}},
		{"/medances", Result{}},
		{"see https://x.org", Result{HasLink: true}},
		{"#**Verona**", Result{HasLink: true}},
		{"![cat](https://x.org/cat.png)", Result{HasLink: true, HasImage: true}},
		{"https://x.org/cat.JPG", Result{HasLink: true, HasImage: true}},
		{"> https://x.org/cat.png", Result{HasLink: true}},
		{"[report](/user_uploads/1/ab/xyz/report.pdf)", Result{HasLink: true, HasAttachment: true}},
		{"[pic](/user_uploads/1/ab/xyz/pic.png?x=1)", Result{HasLink: true, HasAttachment: true, HasImage: true}},
		{"[evil](javascript:x)", Result{}},
		{"plain words", Result{}},
	}
	r := New()
	for _, tc := range cases {
		got := r.Render(tc.in, fakeLookup{}, nil)
		got.HTML = ""
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Render(%q) reports %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestRenderNeverPanics(t *testing.T) {
	r := New()
	res := r.Render("@**Full Name**", panicLookup{}, nil)
	if res.HTML != "<p>@**Full Name**</p>" || res.MentionedUserIDs != nil {
		t.Errorf("after a panic: %+v", res)
	}
}

// panicLookup fails the way a broken backend might.
type panicLookup struct{ fakeLookup }

func (panicLookup) UserByName(string) (User, bool) { panic("store closed") }

// TestConcurrentRender shares one renderer between goroutines (run with
// -race to check).
func TestConcurrentRender(t *testing.T) {
	r := New()
	links := mustLinkifiers(t, Linkifier{1, `#(?P<id>[0-9]+)`, "https://x.org/{id}"})
	corpus := chatCorpus()[:40]
	want := make([]string, len(corpus))
	for i, m := range corpus {
		want[i] = r.Render(m, fakeLookup{}, links).HTML
	}
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i, m := range corpus {
				if got := r.Render(m, fakeLookup{}, links).HTML; got != want[i] {
					t.Errorf("concurrent Render(%q) = %q, want %q", m, got, want[i])
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}
