# The kit on Debian, in a container, for linux/amd64 and linux/arm64: on an
# Apple laptop Docker runs the arm64 image natively, and every lab runs on
# the kit's CPU emulator (docs/student-guide.md, "Docker on an Apple laptop").
#
#     docker build -t gpulab .                       # this machine's architecture
#     docker buildx build --platform linux/amd64,linux/arm64 -t gpulab .   # both
#     docker run --rm -it -v "$PWD":/work gpulab     # then: gpulab start 1 /work
#
# No CUDA in it: the emulator backend only. The arm64 build is the one
# grader/tests/run-on-arm64.sh checks (the same Debian, packages and make).
FROM debian:bookworm-slim

# what grader/install-deps.sh would install for `make` (a C and C++ compiler,
# make, pkg-config, cJSON, libpng)
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        build-essential make pkg-config libcjson-dev libpng-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/gpulab
COPY . .
# the kit only; `make` would also grade every reference solution (a minute
# or more, for nothing the image keeps)
RUN make kit

ENV PATH=/opt/gpulab:$PATH
WORKDIR /work
CMD ["bash"]
