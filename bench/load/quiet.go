package main

import (
	"fmt"
	"log"
	"sort"
	"strings"
	"time"

	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// quietFor is how long measure waits at most for the worker to finish what
// the previous scenario queued.
const quietFor = 2 * time.Minute

// waitQuiet waits until no task is pending, running or scheduled in any
// queue, so a scenario is not measured while the worker still sends the
// emails, events and rollups of the one before it (4,000 fulfilments left
// 5–7 s of work on the test machine). Tasks waiting to retry are not waited
// for: a delivery to an endpoint that is down retries for hours. A queue
// asynq has not seen yet has no info and counts as empty.
func (b *bench) waitQuiet() {
	opt, err := asynq.ParseRedisURI(b.redisURL)
	if err != nil {
		log.Printf("bench: queues not checked: %v", err)
		return
	}
	in := asynq.NewInspector(opt)
	defer in.Close()
	start := time.Now()
	for {
		busy := 0
		for q := range tasks.QueueWeights {
			if info, err := in.GetQueueInfo(q); err == nil {
				busy += info.Pending + info.Active + info.Scheduled
			}
		}
		if busy == 0 {
			if waited := time.Since(start); waited > time.Second {
				log.Printf("bench: waited %s for the worker to finish the previous scenario's tasks", waited.Round(time.Second))
			}
			return
		}
		if time.Since(start) > quietFor {
			log.Printf("bench: %d tasks still queued after %s; measuring anyway", busy, quietFor)
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// backlog counts the tasks pending, active or scheduled in every queue, by
// task type, and their total.
func backlog(in *asynq.Inspector) (map[string]int, int) {
	byType, total := map[string]int{}, 0
	for q := range tasks.QueueWeights {
		for _, list := range []func(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error){
			in.ListPendingTasks, in.ListActiveTasks, in.ListScheduledTasks} {
			for page := 1; ; page++ {
				ts, err := list(q, asynq.PageSize(1000), asynq.Page(page))
				for _, t := range ts {
					byType[t.Type]++
					total++
				}
				if err != nil || len(ts) < 1000 {
					break
				}
			}
		}
	}
	return byType, total
}

// drainFigures are the worker's tasks left when a scenario's last
// request was answered, by type, and how long the worker took to finish
// them (0 when it had not within quietFor).
type drainFigures struct {
	scenario string
	byType   map[string]int
	total    int
	took     time.Duration
}

// measureDrain counts the tasks queued now and waits (quietFor at most)
// until none is, as a note of the report: what a scenario left the worker
// and whether it keeps up.
func (b *bench) measureDrain(scenario string) {
	opt, err := asynq.ParseRedisURI(b.redisURL)
	if err != nil {
		return
	}
	in := asynq.NewInspector(opt)
	defer in.Close()
	d := drainFigures{scenario: scenario}
	start, cpu0 := time.Now(), b.worker.cpu()
	d.byType, d.total = backlog(in)
	// Courier bookings are queued by the outbox's dispatch from their
	// shipment rows: those not queued yet are tasks to come.
	if n := b.bookingsToQueue(); n > 0 {
		d.byType[tasks.TypeCourierBook] += n
		d.total += n
	}
	left := func() int { _, n := backlog(in); return n + b.bookingsToQueue() }
	for n := d.total; n > 0; n = left() {
		if time.Since(start) > quietFor {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if left() == 0 {
		d.took = time.Since(start)
	}
	var types []string
	for t, n := range d.byType {
		types = append(types, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(types)
	took := fmt.Sprintf("the worker finished them in %s (%.0f tasks/s, worker CPU %s)", d.took.Round(100*time.Millisecond),
		float64(d.total)/d.took.Seconds(), (b.worker.cpu() - cpu0).Round(10*time.Millisecond))
	if d.took == 0 {
		took = fmt.Sprintf("some were still queued after %s", quietFor)
	}
	note := fmt.Sprintf("When %s's last answer came, %d worker tasks were queued (%s); %s.", scenario, d.total, strings.Join(types, ", "), took)
	log.Printf("bench: %s", note)
	b.notes = append(b.notes, note)
}

// bookingsToQueue counts the courier bookings the outbox's dispatch has
// still to queue (shipment.QueueBookings).
func (b *bench) bookingsToQueue() int {
	var n int
	b.db.Raw(`SELECT count(*) FROM shipments WHERE status = 'pending' AND booking_queued_at IS NULL`).Scan(&n)
	return n
}
