# transfer_to_npu - top-level build.
#   make            build/lib/libtransfer_to_npu.so + drop-ins (libcudart.so.12/.13, libcuda.so.1,
#                   libcublas.so.12/.13, libcublasLt.so.12/.13)
#   make test       every tier; ends with "N passed, M failed"
#   make bench      benchmarks, ratios measured in one run
#   make demo       the training demo on the NPU
#   make demo-torch the PyTorch training demo (examples/train_torch.py) on the NPU
#   make samples CUDA_SAMPLES=path   NVIDIA's cuda-samples (a checkout at path) built and run on
#                   the NPU, pass/fail per sample (tests/samples/run_samples.sh)
#   make deps       Debian packages the build and tests need
#   make install PREFIX=/usr/local
# Outputs are written to a temporary name and renamed, so a process never loads a half-
# written library.
# Sources are found by wildcard: adding a .c file under npu_runtime/, interpose/ or
# transfer_to_npu/ adds it to the library; no list to keep in sync.

CC       ?= cc
CUDA     ?= /usr/local/cuda
NVCC     ?= $(CUDA)/bin/nvcc
PYTHON   ?= python3
PREFIX   ?= /usr/local
VERSION  := 0.1.0
B        := build
OBJ      := $(B)/obj
LIBDIR   := $(B)/lib
GEN      := $(B)/gen

comma    := ,
WARN     := -Wall -Wextra -Wno-unused-parameter
CFLAGS   ?= -O2 -g
BASEFLAGS := $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -pthread -D_GNU_SOURCE -I. \
             -DTRANSFER_TO_NPU_VERSION=\"$(VERSION)\"
CUDAINC  := -I$(CUDA)/include
LIBS     := -lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread

RT_SRC   := $(sort $(wildcard npu_runtime/*.c npu_runtime/kernel/*.c))
IP_SRC   := $(sort $(wildcard interpose/*/*.c))
TOP_SRC  := $(sort $(wildcard transfer_to_npu/*.c))
RT_OBJ   := $(RT_SRC:%.c=$(OBJ)/%.o)
IP_OBJ   := $(IP_SRC:%.c=$(OBJ)/%.o)
TOP_OBJ  := $(TOP_SRC:%.c=$(OBJ)/%.o)
ALL_OBJ  := $(RT_OBJ) $(IP_OBJ) $(TOP_OBJ)
STUB_OBJ := $(OBJ)/gen/unsupported.o

MAINLIB  := $(LIBDIR)/libtransfer_to_npu.so
RTLIB    := $(B)/libnpu_runtime.a
# drop-in soname : version node ('-': none, as the real libcuda) : symbol list (cudart12.syms = cudart.syms + CUDA 12-only names)
DROPINS  := libcudart.so.13:libcudart.so.13:interpose/cudart/cudart.syms \
            libcudart.so.12:libcudart.so.12:interpose/cudart/cudart12.syms \
            libcuda.so.1:-:interpose/driver/cuda.syms$(comma)interpose/driver/cuda_interop.syms \
            libcublas.so.13:libcublas.so.13:interpose/cublas/cublas.syms \
            libcublas.so.12:libcublas.so.12:interpose/cublas/cublas.syms \
            libcublasLt.so.13:libcublasLt.so.13:interpose/cublas/cublasLt.syms \
            libcublasLt.so.12:libcublasLt.so.12:interpose/cublas/cublasLt.syms \
            libcurand.so.10:libcurand.so.10:interpose/curand/curand.syms
DROPIN_FILES := $(foreach d,$(DROPINS),$(LIBDIR)/$(word 1,$(subst :, ,$(d))))

.PHONY: all test bench demo demo-torch samples deps install clean check-layering unit cuda-tests
all: $(MAINLIB) $(DROPIN_FILES) $(LIBDIR)/transfer_to_npu.pc

$(OBJ)/npu_runtime/%.o: npu_runtime/%.c $(wildcard npu_runtime/*.h npu_runtime/*.def npu_runtime/kernel/*.h npu_runtime/kernel/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -c $< -o $@
$(OBJ)/interpose/%.o: interpose/%.c $(wildcard interpose/*/*.h interpose/*/*.def npu_runtime/*.h npu_runtime/*.def npu_runtime/kernel/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CUDAINC) -c $< -o $@
$(OBJ)/transfer_to_npu/%.o: transfer_to_npu/%.c $(wildcard npu_runtime/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -c $< -o $@

# Every symbol the real libraries export and we do not implement gets a generated stub that
# logs its name once and returns the API's not-supported status (scripts/gen_stubs.py).
$(GEN)/unsupported.c: $(ALL_OBJ) scripts/gen_stubs.py interpose/cudart/cudart.syms \
                      interpose/driver/cuda.syms interpose/driver/cuda_interop.syms \
                      interpose/cublas/cublas.syms interpose/cublas/cublasLt.syms interpose/curand/curand.syms
	@mkdir -p $(GEN)
	nm -g --defined-only $(ALL_OBJ) | awk 'NF==3{print $$3}' | sort -u > $(GEN)/implemented.txt
	$(PYTHON) scripts/gen_stubs.py $(GEN)/implemented.txt $@
$(STUB_OBJ): $(GEN)/unsupported.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CUDAINC) -Iinterpose/common -c $< -o $@

$(MAINLIB): $(ALL_OBJ) $(STUB_OBJ)
	@mkdir -p $(LIBDIR)
	$(CC) -shared -pthread -Wl,-soname,libtransfer_to_npu.so -Wl,-z,defs -o $@.tmp $^ $(LIBS)
	mv -f $@.tmp $@

$(RTLIB): $(RT_OBJ)
	@rm -f $@.tmp; ar rcs $@.tmp $^ && mv -f $@.tmp $@

# Drop-ins: thin trampolines that jump to the one runtime in libtransfer_to_npu.so.
define DROPIN_RULE
$(LIBDIR)/$(1): $(MAINLIB) $(subst $(comma), ,$(3)) scripts/gen_dropin.py
	$(PYTHON) scripts/gen_dropin.py --soname $(1) --node '$(filter-out -,$(2))' --syms $(3) --out $(GEN)/$(1)
	$(CC) -shared -fPIC -O2 -o $$@.tmp $(GEN)/$(1).c -Wl,-soname,$(1) \
	    $(if $(filter-out -,$(2)),-Wl$(comma)--version-script=$(GEN)/$(1).map) -ldl
	mv -f $$@.tmp $$@
endef
$(foreach d,$(DROPINS),$(eval $(call DROPIN_RULE,$(word 1,$(subst :, ,$(d))),$(word 2,$(subst :, ,$(d))),$(word 3,$(subst :, ,$(d))))))

$(LIBDIR)/transfer_to_npu.pc: Makefile
	@mkdir -p $(LIBDIR)
	printf 'prefix=%s\nlibdir=$${prefix}/lib/transfer_to_npu\n\nName: transfer_to_npu\nDescription: CUDA programs on an emulated NPU\nVersion: %s\nCflags: -I$${prefix}/include/transfer_to_npu\nLibs: -L$${libdir} -ltransfer_to_npu\n' '$(PREFIX)' '$(VERSION)' > $@

check-layering:
	@if grep -rlE '#include *[<"](cuda|cublas|driver_types|vector_types)' npu_runtime; then \
	    echo "layering: npu_runtime/ must not include CUDA headers"; exit 1; fi

# test, bench and demo first install what is missing (scripts/install-deps.sh), then build.
test:
	@bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory all $(RTLIB)
	@$(MAKE) --no-print-directory check-layering
	@bash tests/run.sh

bench:
	@bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory all $(RTLIB)
	@bash bench/run.sh

demo:
	@bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory all
	@bash examples/run_demo.sh

demo-torch:
	@bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory all
	@bash examples/run_demo_torch.sh

samples:
	@$(MAKE) --no-print-directory all
	@CUDA_SAMPLES="$(CUDA_SAMPLES)" bash tests/samples/run_samples.sh

deps:
	bash scripts/install-deps.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/lib/transfer_to_npu $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/transfer_to_npu/python/transfer_to_npu
	cp -P $(MAINLIB) $(DROPIN_FILES) $(DESTDIR)$(PREFIX)/lib/transfer_to_npu/
	install -m 644 $(LIBDIR)/transfer_to_npu.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -d $(DESTDIR)$(PREFIX)/include/transfer_to_npu
	install -m 644 npu_runtime/kernel/npu_override.h $(DESTDIR)$(PREFIX)/include/transfer_to_npu/
	install -m 755 scripts/transfer-to-npu $(DESTDIR)$(PREFIX)/bin/transfer-to-npu
	sed -i 's|^TTN_LIBDIR_DEFAULT=.*|TTN_LIBDIR_DEFAULT=$(PREFIX)/lib/transfer_to_npu|; s|^TTN_PYDIR_DEFAULT=.*|TTN_PYDIR_DEFAULT=$(PREFIX)/share/transfer_to_npu/python|' \
	    $(DESTDIR)$(PREFIX)/bin/transfer-to-npu
	if [ -f scripts/npu-smi ]; then install -m 755 scripts/npu-smi $(DESTDIR)$(PREFIX)/bin/npu-smi; fi
	if ls transfer_to_npu/*.py >/dev/null 2>&1; then cp transfer_to_npu/*.py \
	    $(DESTDIR)$(PREFIX)/share/transfer_to_npu/python/transfer_to_npu/; fi
	if [ -d transfer_to_npu/_site ]; then install -d $(DESTDIR)$(PREFIX)/share/transfer_to_npu/python/transfer_to_npu/_site; \
	    cp transfer_to_npu/_site/*.py $(DESTDIR)$(PREFIX)/share/transfer_to_npu/python/transfer_to_npu/_site/; fi

clean:
	rm -rf $(B)
