#!/bin/sh
# Copies source file $1 to $2 behind a #line directive naming $1, so that a
# compiler's messages about the copy point at the source (kernels/meson.build).
printf '#line 1 "%s"\n' "$1" > "$2" && cat "$1" >> "$2"
