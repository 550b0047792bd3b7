package main

import (
	"fmt"
	"io"

	"github.com/gocommerce/shop/api/startpage"
)

// printAddresses tells the person who ran `make run` where to go next: the
// places of the start page, on this port.
func printAddresses(w io.Writer, port int) {
	base := fmt.Sprintf("http://localhost:%d", port)
	fmt.Fprintf(w, "%-17s %s/\n", "Start page:", base)
	for _, p := range startpage.Places {
		fmt.Fprintf(w, "%-17s %s%s  (%s)\n", p.Name+":", base, p.Path, p.Note)
	}
}
