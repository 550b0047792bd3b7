package main

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

// luaScripts are the wrk scripts of the scenarios, carried in the binary so
// the tool drives the same requests from any working directory (a script
// path that does not resolve makes wrk send plain GETs of the scenario's
// path, figures of work not done).
//
//go:embed lua/*.lua
var luaScripts embed.FS

// writeLua writes the scripts into dir/lua and returns that directory, the
// scripts' LUA_DIR (they load common.lua from it).
func writeLua(dir string) (string, error) {
	out := filepath.Join(dir, "lua")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	names, err := fs.Glob(luaScripts, "lua/*.lua")
	if err != nil {
		return "", err
	}
	for _, name := range names {
		body, err := luaScripts.ReadFile(name)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(name)), body, 0o644); err != nil {
			return "", err
		}
	}
	return out, nil
}
