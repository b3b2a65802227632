"""bgsim's private core: the recruit rules as compiled by mypyc.

Nothing here is public API. The public names (``bgsim.PlayerState``,
``bgsim.MinionCard``, ``bgsim.TurnModel`` ...) are re-exported from the
package root; scripts and agents import those, never this package (an
import-linter contract in the test suite holds agents to it). The modules
here are compiled to C extensions at install time (``bgsim/compiled.py``
lists them) and build their frozen values with unchecked stores
(``bgsim._core.minions.NATIVE``); see DESIGN.md, "The private core".
"""
