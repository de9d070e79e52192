module m

require (
	x/y v1.0.0
	x/z 1.0
	x/w
)
require a/b v2.0.0 extra
