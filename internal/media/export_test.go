package media

// SetAfterRender installs a hook between writing an image's renditions and
// marking it ready, where a test makes the worker "die" or the image vanish.
func (s *Service) SetAfterRender(f func() error) { s.afterRender = f }
