// Command webhook-receiver is a subscriber for trying outbound webhooks on
// one machine (docs/OPERATIONS.md, "Webhooks to this machine"): it listens
// on -addr, checks each delivery's Standard Webhooks signature with the
// subscription's -secret, prints one line per delivery and answers 204, or
// 401 to a delivery whose signature does not match (the shop retries it).
//
//	go run ./scripts/webhook-receiver -addr 127.0.0.1:9999 -secret "$WEBHOOK_SECRET"
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/gocommerce/shop/internal/webhooks"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9999", "address to listen on")
	secret := flag.String("secret", "", "the subscription's signing secret (whsec_...), shown when it was created")
	flag.Parse()
	key, err := webhooks.SecretKey(*secret)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhook-receiver: -secret must be the subscription's whsec_ secret")
		os.Exit(2)
	}
	log.SetFlags(log.Ltime)
	log.Printf("listening on http://%s/", *addr)
	log.Fatal(http.ListenAndServe(*addr, handler(key, os.Stdout)))
}

// handler verifies and prints each delivery to out.
func handler(key []byte, out io.Writer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		ok, err := verify(key, r.Header, body)
		if !ok {
			fmt.Fprintf(out, "REFUSED %s: %v\n", r.Header.Get("webhook-id"), err)
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		fmt.Fprintf(out, "%s %s\n", r.Header.Get("webhook-id"), body)
		w.WriteHeader(http.StatusNoContent)
	})
}
