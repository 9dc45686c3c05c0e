package domain

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"lanchat/backend/store"
)

// notifyRuleCase is one row of testdata/notify_cases.json, the table the
// web app's rule (frontend/src/state/notify.test.ts) is tested against too.
type notifyRuleCase struct {
	Name                       string
	Own, Private, Unsubscribed bool
	Flags                      []string
	Sub                        map[string]*bool
	Settings                   map[string]any
	Muted, Followed, Reading   bool
	Want                       struct{ Show, Sound bool }
}

func TestNotifies(t *testing.T) {
	raw, err := os.ReadFile("testdata/notify_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []notifyRuleCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			c := NotifyCase{Own: tc.Own, Private: tc.Private, Muted: tc.Muted, Followed: tc.Followed, Reading: tc.Reading}
			for _, fn := range store.FlagNames {
				if slices.Contains(tc.Flags, fn.Name) {
					c.Flags |= fn.Flag
				}
			}
			if !tc.Private && !tc.Unsubscribed {
				c.Sub = &store.Subscription{DesktopNotifications: tc.Sub["desktop_notifications"],
					AudibleNotifications: tc.Sub["audible_notifications"], WildcardMentionsNotify: tc.Sub["wildcard_mentions_notify"]}
			}
			got := Notifies(c, notifySettingsOf(store.User{Settings: tc.Settings}))
			if got.Show != tc.Want.Show || got.Sound != tc.Want.Sound {
				t.Errorf("got %+v, want %+v", got, tc.Want)
			}
		})
	}
}
