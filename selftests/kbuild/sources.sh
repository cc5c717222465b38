# shellcheck shell=bash
# sources.sh: sourced by the kbuild tests, from the top of the checkout.
#
#   module_sources DIR   a fresh copy of the module's sources (the top
#                        Kbuild, kmod/, include/) in DIR, so that a build
#                        against another kernel leaves the checkout alone.
module_sources() {
	rm -rf "$1"
	mkdir -p "$1/kmod"
	cp Kbuild "$1/" &&
		cp kmod/Kbuild kmod/*.[ch] "$1/kmod/" &&
		cp -r include "$1/"
}
