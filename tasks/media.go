package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// Product media task types (docs/DECISIONS.md "Product media").
const (
	// TypeMediaProcess makes the renditions of one uploaded image.
	TypeMediaProcess = "media:process"
	// TypeMediaSweep deletes the files of deleted images (the
	// media_deletions outbox) and queues again the images whose processing
	// task was lost.
	TypeMediaSweep = "media:sweep"
)

// MediaProcessPayload names the image to process.
type MediaProcessPayload struct {
	ImageID string `json:"imageId"`
}

// MediaProcessRetries is how often a failed processing attempt (storage or
// database unavailable) is retried; the last failure marks the image failed.
const MediaProcessRetries = 5

// NewMediaProcessTask builds the processing of image imageID; the id is the
// image's, so an upload and the sweep queue it once.
func NewMediaProcessTask(imageID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeMediaProcess, mustJSON(MediaProcessPayload{ImageID: imageID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("media:process:" + imageID),
		asynq.MaxRetry(MediaProcessRetries),
		// Decoding and encoding a 40-megapixel image takes seconds; waiting
		// for a decode slot behind others takes longer.
		asynq.Timeout(5 * time.Minute),
	}
}

// NewMediaSweepTask builds the sweep for the second of now: every nudge in
// that second gets the same task, which runs when the second is over, so
// it sees every deletion committed before any of them (a sweep that ran
// within the second could miss a later one, whose nudge would then be a
// duplicate of it).
func NewMediaSweepTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeMediaSweep, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.TaskID(TickID(TypeMediaSweep, now, time.Second)),
		asynq.ProcessAt(now.Truncate(time.Second).Add(time.Second)),
		asynq.MaxRetry(3),
		asynq.Timeout(2 * time.Minute),
		asynq.Retention(10 * time.Second),
	}
}
