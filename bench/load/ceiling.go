package main

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
)

// serveCeiling runs a bare Fiber app answering fixed JSON: the framework
// ceiling every endpoint is compared with.
func serveCeiling(addr string) error {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	body := []byte(`{"id":"8f1d0c7e-0000-4000-8000-000000000000","title":"Classic Crew Tee","price":499.5}`)
	app.Get("/", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	})
	return app.Listen(addr)
}

var reTPS = regexp.MustCompile(`tps = ([\d.]+) \(without initial connection time\)`)

// pgbenchSelect measures the database ceiling: pgbench -S (read-only
// primary-key selects) with conns clients, prepared statements.
func pgbenchSelect(pgURL string, conns int, dur time.Duration) (float64, error) {
	if out, err := exec.Command("pgbench", "-i", "-q", "-s", "10", pgURL).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("pgbench -i: %v\n%s", err, out)
	}
	out, err := exec.Command("pgbench", "-S", "-M", "prepared", "-c", strconv.Itoa(conns), "-j", "2",
		"-T", strconv.Itoa(int(dur.Seconds())), pgURL).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench -S: %v\n%s", err, out)
	}
	m := reTPS.FindStringSubmatch(string(out))
	if m == nil {
		return 0, fmt.Errorf("pgbench output without tps:\n%s", out)
	}
	return strconv.ParseFloat(m[1], 64)
}
