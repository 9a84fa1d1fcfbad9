// Package residency lets go of the pages of baton's own machine code that
// only its start-up ran. Every package's initialisation touches code of
// its own, spread over the whole binary, and on a fault the kernel maps
// the whole aligned 64 KiB block around the page from the page cache: by
// the time main runs, most of the text is resident though the run needs
// far less of it. Dropping the page-table entries (the mapping and the
// page cache stay) costs the pages the run does need one more fault each,
// a read from disk only if the page cache let them go meanwhile.
package residency
