package order

// SkipFrom lets tests take the day-counter skip at small offsets.
var SkipFrom = &skipFrom
