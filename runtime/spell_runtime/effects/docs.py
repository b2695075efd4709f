"""The documentation entries of the effect namespaces (``:short-docs``, ``:docs {:guide}``, ``:detail``).

These texts are what a model reads through ``describe-fn``/``!describe`` before
using an effect, so they state the shapes it will get back (envelopes, raw
values, receipts) and the one rule it most often breaks: effects run only in the
quoted trailing expression. They are not normative (language.md §12.3); they
are kept apart from the code so editing prose never touches behaviour.
"""

from __future__ import annotations

IO_SHORT = "Files, directories, read-only search (grep, glob, git) and processes; results are {:ok :out :err} envelopes."

IO_GUIDE = """IO - files, directories, search and processes (effect namespace).

Reading (one-based, half-open line ranges; windows are zero-based UTF-16 offsets per line):
  (io/read-lines path)                  -> {:ok true :out ["line" ...] :err nil}
  (io/read-lines path start end)        lines start..end-1; end nil = to end of file
  (io/read-lines path {:char-start 0 :char-end 200})   characters of each line
  (io/read-file path [start end] [opts])  the same selection as text, terminators kept
  (io/slurp path)                       the whole text
Writing (the :out of a success is the path):
  (io/write-file path content)  (io/spit path content {:append true})
  (io/str-replace path old new [{:all true}])
  (io/replace-lines path start end content)   (io/replace-lines path [[start end content] ...])
Files and folders: exists? directory? ls stat mkdir mkdirs delete copy move temp-file cwd env
Search: (io/grep pattern path [{:ignore-case true :include "*.py" :context 2 :max-count 20}])
        (io/glob pattern [path] [{:type "f" :max-depth 3}])   (io/git "log" "--oneline" "-5")
Processes: (io/sh "cmd" [{:timeout 60}]) (io/exec ["prog" "arg"]) -> {:ok :exit :out :err}

Every io/ call is an effect: write it in the quoted trailing expression, e.g.
  '(!call-now lines (io/read-lines "main.py" 1 80))
Failures do not throw: check :ok and read :err. Wrong argument types do throw.
Prefer read-lines with a range over reading whole large files, and grep/glob over io/sh."""

IO_DETAIL: dict[str, str] = {
    "read-lines": "(io/read-lines path), (io/read-lines path opts), (io/read-lines path start end), "
                  "(io/read-lines path start end opts).\nstart/end are one-based and half-open [start, end); "
                  "start below 1 counts as 1, end nil or past the end means end of file. opts {:char-start a "
                  ":char-end b} keeps UTF-16 units [a, b) of each line. :out is a vector of line strings "
                  "(terminators removed) that remembers its line numbers.",
    "read-file": "Like read-lines but :out is one string: the selected lines with their original line "
                 "terminators. (io/read-file path) is exactly the file text.",
    "slurp": "(io/slurp path) -> {:ok true :out <whole text> :err nil}; File not found: <path> when missing.",
    "slurp-bytes": "(io/slurp-bytes path) -> :out is the content as bytes.",
    "write-file": "(io/write-file path content) replaces or creates the file (parent folders are created); "
                  "the write is atomic. :out is path.",
    "spit": "(io/spit path content) like write-file; (io/spit path content {:append true}) appends.",
    "str-replace": "(io/str-replace path old new) replaces the only occurrence of old (literal text); fails "
                   "when old is missing or appears more than once. {:all true} replaces every occurrence.",
    "replace-lines": "(io/replace-lines path start end content) replaces lines start..end-1 (half-open) by "
                     "content; start = end inserts before start; \"\" deletes. (io/replace-lines path [[s e c] "
                     "...]) applies several edits whose line numbers all refer to the original file.",
    "exists?": "(io/exists? path) -> true/false (not an envelope).",
    "directory?": "(io/directory? path) -> true/false (not an envelope).",
    "ls": "(io/ls path) -> :out [{:name \"a.txt\" :size 12} {:name \"sub/\" :size 4096} ...] sorted by name.",
    "stat": "(io/stat path) -> :out {:size :modified (epoch ms) :readable :writable :executable :directory}.",
    "mkdir": "(io/mkdir path) creates one folder; fails with Already exists: <path>.",
    "mkdirs": "(io/mkdirs path) creates the folder and missing parents; an existing folder is fine.",
    "delete": "(io/delete path) deletes a file or an empty folder.",
    "copy": "(io/copy src dest) copies a file, replacing dest. :out is dest.",
    "move": "(io/move src dest) moves or renames, replacing dest. :out is dest.",
    "temp-file": "(io/temp-file) or (io/temp-file prefix suffix) -> :out is the absolute path of a new empty file.",
    "cwd": "(io/cwd) -> the working directory relative paths start from (a string).",
    "env": "(io/env) -> map of all environment variables; (io/env \"HOME\") -> value or nil.",
    "sh": "(io/sh \"cmd\") runs through the shell; string parts are concatenated: (io/sh \"wc -l \" path). "
          "Options go last: (io/sh \"make\" {:timeout 120}); :timeout 0 or nil disables the default 30 s. "
          "-> {:ok (= exit 0) :exit N :out stdout :err stderr-or-nil}; a timeout gives :exit -1.",
    "exec": "(io/exec [\"prog\" \"arg1\"]) runs a program without a shell -> same envelope as io/sh.",
    "grep": "(io/grep pattern path [opts]) recursive extended-regex search printing file:line:text. pattern may be "
            "a vector of patterns. opts :ignore-case :include \"*.clj\" :context N :max-count N. No match is "
            "{:ok true :exit 1 :out \"\"}.",
    "glob": "(io/glob \"*.py\" \"src\" {:type \"f\" :max-depth 4}) -> :out is the sorted matching paths, one per line.",
    "git": "(io/git \"status\"), (io/git \"log\" \"--oneline\" \"-10\"): only blame, diff, log, rev-parse, show, status.",
    "sh-test": "(io/sh-test \"pytest -q\") -> a zero-argument function returning {:pass bool :output text}.",
    "watch-send": "(io/watch-send dir handle [timeout-ms]) returns nil and later sends handle a vector of "
                  "{:kind :create|:modify|:delete :name file} when the folder changes.",
    "event-send": "(io/event-send f handle from) runs f in the background; {:ok v} sends v to handle.",
}

IO_PARTITION_SHORT = {
    "io-read": "Read-only files, folders and search (read-lines, grep, glob, git, ls, stat...); envelopes.",
    "io-write": "File writes and edits (write-file, str-replace, replace-lines, mkdir, copy, move...); envelopes.",
    "io-exec": "Processes (sh, exec, sh-test) and folder watching; envelopes.",
}

WEB_SHORT = "Web search and page fetch; results are {:ok :status :out :err} envelopes."

WEB_GUIDE = """WEB - search and fetch (effect namespace).

  (web/search "query" [{:max-results 5}])  -> :out [{:title :url :snippet} ...]
  (web/fetch "https://example.com/page")   -> :out the page as text, :status the HTTP status
  (web/config)                             -> :out the effective configuration
Failures do not throw: an HTTP error keeps :status and the body in :out, :err explains.
Use them in the quoted trailing expression: '(!call-now page (web/fetch url))"""

WEB_DETAIL: dict[str, str] = {
    "search": "(web/search query) or (web/search query {:max-results n :backend :serper}); n is clamped to 1..10.",
    "fetch": "(web/fetch url) or (web/fetch url {:backend :raw}); a bare domain gets https://. Backends: :jina "
             "(reader service) with :raw (direct download, HTML turned into text) as fallback.",
    "config": "(web/config) -> {:ok true :out {:search {...} :fetch {...} :http {...}}}.",
}

GLOBALS_SHORT = "State shared by all agents of a run (starts as {:roles {} :tasks []}); plain values, no envelopes."

GLOBALS_GUIDE = """GLOBALS - state shared by every agent of this run (effect namespace).

  (globals/get :k)            value or nil
  (globals/set :k v)          stores v, returns v
  (globals/update :k f)       atomically replaces the value by (f value), returns the new value
  (globals/pop :k)            atomically removes and returns the first element of a sequence
  (globals/keys) (globals/all)
  (globals/wait-until pred)   blocks until (pred whole-map) is truthy, returns true
Use them in the quoted trailing expression."""

GLOBALS_DETAIL: dict[str, str] = {
    "get": "(globals/get key) -> the value or nil.",
    "set": "(globals/set key value) -> value.",
    "update": "(globals/update key f) -> the new value. f may run more than once when agents race, so keep it pure.",
    "pop": "(globals/pop key) -> first element (the rest stays at key), nil when empty or absent. For work queues.",
    "keys": "(globals/keys) -> vector of keys.",
    "all": "(globals/all) -> the whole map.",
    "wait-until": "(globals/wait-until (fn [m] (= 3 (count (:results m))))) blocks until true; wakes on changes.",
}
