package database

import "strings"

// likeEscaper escapes the characters LIKE gives a meaning to.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LikeEscape escapes s for a LIKE or ILIKE pattern with ESCAPE '\' (the
// default escape character): a user's text never acts as a wildcard.
func LikeEscape(s string) string { return likeEscaper.Replace(s) }

// LikeContains is the pattern of a substring match on s.
func LikeContains(s string) string { return "%" + LikeEscape(s) + "%" }
