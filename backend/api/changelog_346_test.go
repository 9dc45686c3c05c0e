package api_test

// changelog346Cases are the rows for Zulip's changelog entries at levels
// 346–371, on the climb from 9.0 (277) to 10.0 (371).
func changelog346Cases() []changelogCase {
	return []changelogCase{}
}
