#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# packaging/repo.sh PKG_DIR REPO_DIR: this version's packages in PKG_DIR
# (make packages, make kmod) as signed repositories in REPO_DIR, for a
# fleet's own mirror (make repo):
#
#   el/<N>/                      a dnf repository for each RHEL release
#                                N (rhel below): the dkms package, and
#                                each kmod built for a kernel of that
#                                release; each RPM signed,
#                                repodata/repomd.xml signed beside it
#   deb/                         a flat apt repository of the .deb, its
#                                Release signed as InRelease
#   mpt3sas-chainpool.asc, .gpg  the public key, armoured for dnf, a
#                                keyring for apt's Signed-By
#   mpt3sas-chainpool.repo       for /etc/yum.repos.d/
#   mpt3sas-chainpool.sources    for /etc/apt/sources.list.d/
#
# REPO_KEY names the signing key in gpg's keyring (GNUPGHOME); REPO_URL
# is where REPO_DIR will be published (default: file:// of REPO_DIR).
# The .deb itself carries no signature: apt checks it against the hashes
# of the signed InRelease.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
LOG_TAG=repo
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

[ $# = 2 ] || die "usage: $0 PKG_DIR REPO_DIR (REPO_KEY=<gpg key>, REPO_URL=<published URL>)"
pkgdir=$1
[ -n "${REPO_KEY:-}" ] || die "REPO_KEY is not set: name the gpg key that signs the repository (gpg --list-secret-keys)"
# need CMD...: each command, or what installs it
need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || die "no $c here: make deps-repo installs it (scripts/deps/repo)"
	done
}
need gpg
fpr=$(gpg --batch --with-colons --list-secret-keys -- "$REPO_KEY" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
[ -n "$fpr" ] || die "REPO_KEY=$REPO_KEY: no such secret key in gpg's keyring${GNUPGHOME:+ ($GNUPGHOME)}"

name=mpt3sas-chainpool
# the RHEL releases the packages are for
rhel=(8 9 10)
version=$("$top/packaging/version.sh")
mkdir -p "$2"
out=$(cd "$2" && pwd)
url=${REPO_URL:-file://$out}
url=${url%/}
mapfile -t rpms < <(find "$pkgdir" -maxdepth 1 -name "*$name*-$version-*.rpm" ! -name '*.src.rpm' | sort)
mapfile -t debs < <(find "$pkgdir" -maxdepth 1 -name "${name}*_${version}_*.deb" | sort)
[ ${#rpms[@]} -gt 0 ] || [ ${#debs[@]} -gt 0 ] ||
	die "no package of $version in $pkgdir: make packages first"
rm -rf "$out/el" "$out/deb" "$out/$name".*
gpg --batch --yes --export --armor "$fpr" >"$out/$name.asc"
gpg --batch --yes --export "$fpr" >"$out/$name.gpg"

if [ ${#rpms[@]} -gt 0 ]; then
	need rpmsign createrepo_c
	# The dkms package for each release, a kmod for that of its kernel
	# (.el9_4. in its release)
	for m in "${rhel[@]}"; do mkdir -p "$out/el/$m"; done
	for f in "${rpms[@]}"; do
		case ${f##*/} in
		kmod-*)
			m=none
			[[ ! ${f##*/} =~ \.el([0-9]+)_[0-9]+\. ]] || m=${BASH_REMATCH[1]}
			[ -d "$out/el/$m" ] || die "${f##*/}: not built for a kernel of RHEL ${rhel[*]}"
			cp "$f" "$out/el/$m/" ;;
		*) for m in "${rhel[@]}"; do cp "$f" "$out/el/$m/"; done ;;
		esac
	done
	echo "repo: signing $(find "$out/el" -name '*.rpm' | wc -l) RPMs with $fpr"
	find "$out/el" -name '*.rpm' -print0 |
		xargs -0 rpmsign --addsign --define "_gpg_name $fpr" --define "__gpg $(command -v gpg)" \
			>/dev/null 2> >(grep -v 'GPG_TTY' >&2) ||
		die "rpmsign failed"
	for m in "${rhel[@]}"; do
		createrepo_c -q "$out/el/$m" || die "createrepo_c failed"
		gpg --batch --yes -u "$fpr" --detach-sign --armor "$out/el/$m/repodata/repomd.xml" ||
			die "gpg could not sign el/$m/repodata/repomd.xml"
	done
	# $releasever: dnf's, the RHEL major release
	cat >"$out/$name.repo" <<-EOF
	[$name]
	name=mpt3sas-chainpool for RHEL \$releasever
	baseurl=$url/el/\$releasever/
	enabled=1
	gpgcheck=1
	repo_gpgcheck=1
	gpgkey=$url/$name.asc
	EOF
fi

if [ ${#debs[@]} -gt 0 ]; then
	need apt-ftparchive
	mkdir -p "$out/deb"
	cp "${debs[@]}" "$out/deb/"
	(
		cd "$out/deb"
		apt-ftparchive packages . >Packages
		gzip -9nk Packages
		apt-ftparchive -o APT::FTPArchive::Release::Origin="$name" \
			-o APT::FTPArchive::Release::Label="$name" release . >../Release.new
	) || die "apt-ftparchive failed"
	mv "$out/Release.new" "$out/deb/Release"
	gpg --batch --yes -u "$fpr" --digest-algo SHA512 --clearsign -o "$out/deb/InRelease" "$out/deb/Release" ||
		die "gpg could not sign deb/Release"

	cat >"$out/$name.sources" <<-EOF
	Types: deb
	URIs: $url/deb/
	Suites: ./
	Signed-By: /usr/share/keyrings/$name.gpg
	EOF
fi
echo "repo: $out, signed by $fpr, for $url"
