package api_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"lanchat/backend/apitest"
)

// rawGet fetches without Go's transparent decompression, to see the wire.
func rawGet(t *testing.T, url, user, key, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.SetBasicAuth(user, key)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func TestLargeAnswersAreGzippedForClientsThatAcceptIt(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	for i := 0; i < 40; i++ {
		alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "bulk",
			"content": "A message long enough that forty of them make a history page worth compressing, number"}).OK()
	}
	history := s.URL + `/api/v1/messages?anchor=newest&num_before=100&num_after=0`
	res, body := rawGet(t, history, alice.Email(), alice.Key(), "gzip, br")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("history with gzip accepted: Content-Encoding %q, Vary %q", res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	var answer struct {
		Result   string `json:"result"`
		Messages []any  `json:"messages"`
	}
	if err := json.Unmarshal(plain, &answer); err != nil || answer.Result != "success" || len(answer.Messages) < 40 {
		t.Fatalf("decompressed answer: %v %s", err, plain[:min(len(plain), 200)])
	}
	if len(body)*3 > len(plain) {
		t.Errorf("gzip saved too little: %d of %d bytes", len(body), len(plain))
	}

	res, body = rawGet(t, history, alice.Email(), alice.Key(), "")
	if res.Header.Get("Content-Encoding") != "" || !json.Valid(body) {
		t.Errorf("history without Accept-Encoding: Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	res, _ = rawGet(t, s.URL+"/api/v1/users/me", alice.Email(), alice.Key(), "gzip")
	if res.Header.Get("Content-Encoding") != "" {
		t.Errorf("a small answer was compressed")
	}
}
