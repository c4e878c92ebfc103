/** Exact bytes on the wire: a raw connection to a broker and typed request bodies for it. */
package io.tributary.testkit.wire;
