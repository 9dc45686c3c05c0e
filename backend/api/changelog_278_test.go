package api_test

// changelog278Cases are the rows for Zulip's changelog entries at levels
// 278–315, on the climb from 9.0 (277) to 10.0 (371).
func changelog278Cases() []changelogCase {
	return []changelogCase{}
}
