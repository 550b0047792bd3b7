package main

import (
	"log"
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
