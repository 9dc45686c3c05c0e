package domain

import "encoding/json"

// ToMap turns a wire struct into a JSON object, to add fields beside it or
// remove some before sending.
func ToMap(v any) (map[string]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(data, &out)
}
