package audit

import "time"

// SetClock makes l read the time from now.
func (l *Log) SetClock(now func() time.Time) { l.clock = now }
