// Package residency lets go of the pages of baton's own machine code that
// only its start-up ran. Every package's initialisation touches code of
// its own, spread over the whole binary, and the kernel maps a file's
// pages 64 KiB around each touch: by the time main runs, most of the
// text is resident though the run needs far less of it. Dropping the
// mappings (never the page cache) costs the pages the run does need one
// more fault each.
package residency
