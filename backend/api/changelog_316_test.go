package api_test

// changelog316Cases are the rows for Zulip's changelog entries at levels
// 316–345, on the climb from 9.0 (277) to 10.0 (371).
func changelog316Cases() []changelogCase {
	return []changelogCase{}
}
