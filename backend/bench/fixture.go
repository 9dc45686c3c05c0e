// Package bench measures a real lanchatd on loopback: it builds large
// fixtures, drives load, and reports latency percentiles and throughput
// beside the machine's own ceilings.
package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// vocabulary gives fixture messages searchable words with a skewed
// frequency, so some words are common and some rare, as in real chat.
var vocabulary = []string{
	"deploy", "review", "lunch", "meeting", "release", "bug", "fix", "build", "test", "coffee",
	"design", "server", "client", "backup", "network", "printer", "invoice", "holiday", "roadmap", "metrics",
	"kubernetes", "database", "latency", "incident", "customer", "feature", "sprint", "planning", "budget", "laptop",
}

// messagesPerTopic keeps every fixture topic well over the 1000 messages a
// history figure fetches.
const messagesPerTopic = 2500

// SearchWord appears in about one fixture message in ten.
const SearchWord = "kubernetes"

// FixtureTopic is a topic of the fixture's general stream.
var FixtureTopic = "topic 0"

// Fixture makes (or reuses) a development store under dir holding n
// messages spread over the demo streams and topics, written through the
// domain's import path so every index is real.
func Fixture(dir string, n int) error {
	return devFixture(dir, n, func(_ *store.Store, svc *domain.Service) error { return importMessages(svc, n) })
}

// devFixture makes (or reuses, when one of this size is complete) a
// development store under dir, seeded with the demo organization, then
// filled by fill.
func devFixture(dir string, size int, fill func(*store.Store, *domain.Service) error) error {
	done := filepath.Join(dir, "fixture-complete")
	if data, err := os.ReadFile(done); err == nil && string(data) == strconv.Itoa(size) {
		return nil
	}
	os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := domain.New(st, domain.Config{Dev: true, DataDir: dir})
	if err := svc.SeedDevOrganization(); err != nil {
		return err
	}
	if err := fill(st, svc); err != nil {
		return err
	}
	return os.WriteFile(done, []byte(strconv.Itoa(size)), 0o600)
}

// importMessages imports n messages over the demo streams and topics.
func importMessages(svc *domain.Service, n int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	topics := max(1, n/messagesPerTopic)
	senders := []int64{1, 2, 3} // admin, alice, bob: all subscribed to general and random
	const chunk = 5000
	for done := 0; done < n; done += chunk {
		batch := make([]domain.ImportedMessage, 0, chunk)
		for i := done; i < min(done+chunk, n); i++ {
			stream := "general"
			if i%4 == 3 {
				stream = "random"
			}
			batch = append(batch, domain.ImportedMessage{
				SenderID:  senders[i%len(senders)],
				Timestamp: 1_700_000_000 + int64(i),
				OutgoingMessage: domain.OutgoingMessage{
					Type:    "stream",
					Stream:  stream,
					Topic:   fmt.Sprintf("topic %d", rng.IntN(topics)),
					Content: fixtureContent(rng, i),
					Client:  "bench",
				},
			})
		}
		if _, err := svc.ImportMessages(batch); err != nil {
			return fmt.Errorf("import messages %d..: %w", done, err)
		}
	}
	return nil
}

// fixtureContent is a short chat line: a few words drawn with a skew toward
// the start of the vocabulary.
func fixtureContent(rng *rand.Rand, i int) string {
	words := 3 + rng.IntN(6)
	out := fmt.Sprintf("message %d:", i)
	for range words {
		// Squaring a uniform draw favours low indexes (a cheap Zipf).
		f := rng.Float64()
		out += " " + vocabulary[int(f*f*float64(len(vocabulary)))]
	}
	return out
}
