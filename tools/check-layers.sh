#!/bin/sh
# Layering: model/ and layouts/ know no files formats or terminals; io/ knows no terminal;
# exactly one ui/ file includes curses.
rc=0
bad=$(grep -l -E '#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/|yaml\.h|cJSON\.h|cjson/)' model/*.[ch] layouts/*.[ch] 2>/dev/null)
[ -n "$bad" ] && { echo "check-layers: model/ or layouts/ includes curses, libyaml or cJSON: $bad"; rc=1; }
bad=$(grep -l -E '#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/)' io/*.[ch] 2>/dev/null)
[ -n "$bad" ] && { echo "check-layers: io/ includes curses: $bad"; rc=1; }
bad=$(grep -l -E '#[[:space:]]*include[[:space:]]*[<"](\.\./)?(ui|io)/' model/*.[ch] layouts/*.[ch] 2>/dev/null)
[ -n "$bad" ] && { echo "check-layers: model/ or layouts/ includes io/ or ui/: $bad"; rc=1; }
bad=$(grep -l -E '#[[:space:]]*include[[:space:]]*"(\.\./)?ui/' io/*.[ch] 2>/dev/null)
[ -n "$bad" ] && { echo "check-layers: io/ includes ui/: $bad"; rc=1; }
bad=$(grep -l -E '#[[:space:]]*include[[:space:]]*"(\.\./)?(io|ui)/' layouts/*.[ch] model/*.[ch] 2>/dev/null)
n=$(grep -l -E '#[[:space:]]*include[[:space:]]*<(n?curses\.h|ncursesw/)' ui/*.[ch] 2>/dev/null | wc -l)
[ "$n" -gt 1 ] && { echo "check-layers: $n files in ui/ include curses; only ui/term_curses.c may"; rc=1; }
# model/ and layouts/ do no I/O: no stdio file calls.
bad=$(grep -l -E '\b(fopen|fprintf|printf|puts|fputs|getenv|fwrite|fread)[[:space:]]*\(' model/*.c layouts/*.c 2>/dev/null)
[ -n "$bad" ] && { echo "check-layers: model/ or layouts/ does I/O: $bad"; rc=1; }
exit $rc
