# SPDX-License-Identifier: GPL-2.0
#
# Debian packages, included by the top-level Makefile.
#
#   make deb        arc4-dkms, libarc4-1, libarc4-dev, arc4-tools,
#                   arc4-preload (ld.so.preload on install, off on removal),
#                   python3-arc4 and arc4-criu from debian/, with
#                   `dpkg-buildpackage -us -uc -b`, for the host's
#                   architecture (amd64 or arm64), into build/deb/; then
#                   lintian on them (build/deb/lintian.txt) if it is
#                   installed.  Installs nothing: a missing build
#                   dependency is named (make rig installs them all)
#   make test-deb   selftests/deb: the packages installed into a fresh
#                   root tree of this release, booted in the test VM,
#                   purged; then the same for each of TEST_RELEASES
#                   (trixie), with packages built in that release's tree
#
#   make deb ARCH=arm64, make test-deb ARCH=arm64 (on amd64)
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
# The build dependencies (debian/control's Build-Depends, which
# dpkg-checkbuilddeps then checks exactly) and dpkg-buildpackage's package.
DEB_DEPS	:= debhelper dh-dkms dpkg-dev libelf-dev libcapstone-dev \
		   dh-python python3-dev criu

# ARCH: the packages' architecture, the host's (dpkg's) unless given.
DEB_HOST_SUITE	:= $(shell . /etc/os-release && echo $$VERSION_CODENAME)
DEB_HOST_ARCH	:= $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_ARCH	:= $(if $(ARCH),$(if $(filter arm64 aarch64,$(ARCH)),arm64,amd64),$(DEB_HOST_ARCH))
DEB_BAD_ARCH	:= $(filter-out amd64 x86_64 x86 arm64 aarch64,$(ARCH) $(DEB_HOST_ARCH))
# The packages of the host's architecture go to build/deb/, another's
# (built in its tree) to build/deb-ARCH/.
deb_dir		= $(DEB_DIR)$(if $(filter $(1),$(DEB_HOST_ARCH)),,-$(1))

# Each of DEB_DEPS installed, or a message naming those missing.
define deb_need
	@m=; for p in $(DEB_DEPS); do \
		dpkg-query -W -f='$${db:Status-Status}\n' $$p 2>/dev/null | grep -qx installed || m="$$m $$p"; \
	done; \
	[ -z "$$m" ] || { echo "arc4: make deb needs$$m: apt-get install$$m" >&2; exit 1; }
endef

# lintian on the packages in $(1), into $(1)/lintian.txt; any error fails.
# Without lintian, said and not run.
define deb_lintian
	@command -v lintian >/dev/null || { echo "arc4: lintian is not installed, not run (apt-get install lintian)"; exit 0; }; \
	cd $(1) && lintian --display-info --pedantic *.changes >lintian.out 2>&1; \
		rc=$$?; grep -v '^running with root privileges' lintian.out >lintian.txt; \
		rm -f lintian.out; echo "lintian: $$(grep -c . lintian.txt) tags"; cat lintian.txt; \
		if [ $$rc -ne 0 ] || grep -q '^E: ' lintian.txt; then \
			echo "arc4: lintian reports errors ($(1:$(TOP)/%=%)/lintian.txt)"; exit 1; \
		fi
endef

.PHONY: deb test-deb deb-amd64 deb-arm64 test-deb-amd64 test-deb-arm64

deb: deb-$(DEB_ARCH) ## Debian packages for this machine in build/deb/ (ARCH=arm64 on amd64: build/deb-arm64/)
test-deb: test-deb-$(DEB_ARCH) ## install them in a fresh tree (ARCH=arm64: an arm64 one), boot it, purge
ifneq ($(DEB_BAD_ARCH),)
deb-$(DEB_ARCH) test-deb-$(DEB_ARCH): deb-bad-arch
.PHONY: deb-bad-arch
deb-bad-arch:
	@echo "arc4: the packages are built for amd64 or arm64 (ARCH=$(ARCH), this machine $(DEB_HOST_ARCH))"; exit 1
endif

deb-amd64: ## the amd64 packages: built here on amd64
	$(call deb_$(if $(filter amd64,$(DEB_HOST_ARCH)),here,tree),amd64)

deb-arm64: ## the arm64 packages: built here on arm64, in the arm64 tree on amd64
	$(call deb_$(if $(filter arm64,$(DEB_HOST_ARCH)),here,tree),arm64)

# The packages of the host's architecture, built here.
define deb_here
	$(deb_need)
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
endef

test-deb-amd64: rig deb-amd64 ## what make test-deb runs on amd64
	@rc=0; selftests/deb/deb.sh || rc=1; \
	for r in $(TEST_RELEASES); do \
		selftests/deb/deb.sh --release $$r || rc=1; \
	done; exit $$rc

# Another architecture's packages, built in its tree (arm64's on amd64).
define deb_tree
	@test "$(DEB_VERSION)" = "$(ARC4_VERSION)" || \
		{ echo "arc4: debian/changelog says $(DEB_VERSION), lib/Makefile $(ARC4_VERSION)"; exit 1; }
	@test $(1) = arm64 || { echo "arc4: $(1) packages are built on $(1)"; exit 1; }
	rm -rf $(call deb_dir,$(1))
	selftests/deb/build.sh $(DEB_HOST_SUITE)-$(1) $(call deb_dir,$(1))
	@ls -l $(call deb_dir,$(1))/*.deb
	$(call deb_lintian,$(call deb_dir,$(1)))
endef

test-deb-arm64: rig deb-arm64 ## what make test-deb ARCH=arm64 runs
	@rc=0; selftests/deb/deb.sh --release $(DEB_HOST_SUITE)-arm64 || rc=1; \
	for r in $(TEST_RELEASES); do \
		selftests/deb/deb.sh --release $$r-arm64 || rc=1; \
	done; exit $$rc
