//go:build !unix

package repofile

import "os"

// openFlags is a plain read-only open where the Unix flags do not exist;
// the type checks before and after the open still apply.
const openFlags = os.O_RDONLY

// toolOpenFlags matches openFlags where the Unix flags do not exist.
const toolOpenFlags = openFlags
