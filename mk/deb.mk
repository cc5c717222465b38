# SPDX-License-Identifier: GPL-2.0
#
# Debian packages, included by the top-level Makefile.
#
#   make deb        arc4-dkms, libarc4-1, libarc4-dev, arc4-tools and
#                   arc4-preload (ld.so.preload on install, off on removal),
#                   python3-arc4 and arc4-criu from debian/, with
#                   `dpkg-buildpackage -us -uc -b`, into build/deb/; then
#                   lintian on them (build/deb/lintian.txt)
#   make test-deb   selftests/deb: the packages installed into a fresh
#                   root tree of this release, booted in the test VM,
#                   purged; then the same for each of TEST_RELEASES
#                   (trixie), with packages built in that release's tree
#
#   make deb ARCH=arm64, make test-deb ARCH=arm64
#                   the same for arm64: the packages are built inside
#                   the arm64 tree of selftests/deb/tree.sh (this
#                   release's, with the build dependencies; through
#                   qemu-user-static, so minutes) into build/deb-arm64/,
#                   lintian runs here; the test installs them into an
#                   arm64 tree and boots it (qemu-system-aarch64), then
#                   the same for each of TEST_RELEASES' arm64 trees
#
# The build runs in build/deb/arc4-VERSION, a copy of the checkout (the
# files git tracks or would track, so also uncommitted changes), so that
# dpkg-buildpackage's output lands in build/deb/ and not next to the
# checkout, and so that no build product of the tree gets into the package.

DEB_DIR		:= $(TOP)/build/deb
DEB_VERSION	= $(shell dpkg-parsechangelog -l $(TOP)/debian/changelog -S Version)
DEB_SRC		= $(DEB_DIR)/arc4-$(ARC4_VERSION)
# The build dependencies (debian/control's Build-Depends) and lintian.
DEB_DEPS	:= debhelper dh-dkms dpkg-dev libelf-dev libcapstone-dev \
		   pkg-config lintian dh-python python3-dev criu

# ARCH: the packages' architecture, the host's (amd64) unless arm64.
DEB_HOST_SUITE	:= $(shell . /etc/os-release && echo $$VERSION_CODENAME)
DEB_ARCH	:= $(if $(filter arm64 aarch64,$(ARCH)),arm64,amd64)
DEB_BAD_ARCH	:= $(filter-out amd64 x86_64 x86 arm64 aarch64,$(ARCH))

# lintian on the packages in $(1), into $(1)/lintian.txt; any error fails.
define deb_lintian
	@cd $(1) && lintian --display-info --pedantic *.changes >lintian.out 2>&1; \
		rc=$$?; grep -v '^running with root privileges' lintian.out >lintian.txt; \
		rm -f lintian.out; echo "lintian: $$(grep -c . lintian.txt) tags"; cat lintian.txt; \
		if [ $$rc -ne 0 ] || grep -q '^E: ' lintian.txt; then \
			echo "arc4: lintian reports errors ($(1:$(TOP)/%=%)/lintian.txt)"; exit 1; \
		fi
endef

.PHONY: deb test-deb deb-amd64 deb-arm64 test-deb-amd64 test-deb-arm64

deb: deb-$(DEB_ARCH) ## Debian packages in build/deb/ (ARCH=arm64: build/deb-arm64/), and lintian
test-deb: test-deb-$(DEB_ARCH) ## install them in a fresh tree (ARCH=arm64: an arm64 one), boot it, purge
ifneq ($(DEB_BAD_ARCH),)
deb-$(DEB_ARCH) test-deb-$(DEB_ARCH): deb-bad-arch
.PHONY: deb-bad-arch
deb-bad-arch:
	@echo "arc4: ARCH=$(ARCH): the packages are built for amd64 or arm64"; exit 1
endif

deb-amd64: ## what make deb runs on amd64 (the default)
	@scripts/deps-install $(DEB_DEPS)
	@test "$(DEB_VERSION)" = "$(ARC4_VERSION)" || \
		{ echo "arc4: debian/changelog says $(DEB_VERSION), lib/Makefile $(ARC4_VERSION)"; exit 1; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_SRC)
	@if git -C $(TOP) rev-parse --git-dir >/dev/null 2>&1; then \
		git -C $(TOP) ls-files -z --cached --others --exclude-standard | \
			tar -C $(TOP) --null -T - --ignore-failed-read -cf - | \
			tar -C $(DEB_SRC) -xf -; \
	else \
		tar -C $(TOP) --exclude=./build -cf - . | tar -C $(DEB_SRC) -xf -; \
	fi
	cd $(DEB_SRC) && dpkg-checkbuilddeps && \
		dpkg-buildpackage -us -uc -b -j2 >$(DEB_DIR)/build.log 2>&1 || \
		{ tail -n 30 $(DEB_DIR)/build.log; echo "arc4: dpkg-buildpackage failed; see $(DEB_DIR)/build.log"; exit 1; }
	rm -rf $(DEB_SRC)
	@ls -l $(DEB_DIR)/*.deb
	$(call deb_lintian,$(DEB_DIR))

test-deb-amd64: deb-amd64 ## what make test-deb runs on amd64
	@rc=0; selftests/deb/deb.sh || rc=1; \
	for r in $(TEST_RELEASES); do \
		selftests/deb/deb.sh --release $$r || rc=1; \
	done; exit $$rc

deb-arm64: ## what make deb ARCH=arm64 runs
	@test "$(DEB_VERSION)" = "$(ARC4_VERSION)" || \
		{ echo "arc4: debian/changelog says $(DEB_VERSION), lib/Makefile $(ARC4_VERSION)"; exit 1; }
	@scripts/deps-install lintian
	rm -rf $(DEB_DIR)-arm64
	selftests/deb/build.sh $(DEB_HOST_SUITE)-arm64 $(DEB_DIR)-arm64
	@ls -l $(DEB_DIR)-arm64/*.deb
	$(call deb_lintian,$(DEB_DIR)-arm64)

test-deb-arm64: deb-arm64 ## what make test-deb ARCH=arm64 runs
	@rc=0; selftests/deb/deb.sh --release $(DEB_HOST_SUITE)-arm64 || rc=1; \
	for r in $(TEST_RELEASES); do \
		selftests/deb/deb.sh --release $$r-arm64 || rc=1; \
	done; exit $$rc
