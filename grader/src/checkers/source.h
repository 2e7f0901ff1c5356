/*
 * source.h - the kit's own view of a student's source file: read as text,
 * outside comments and literals, never by running anything of it. Used to
 * point a finding at a line when neither the compiler nor a checker gave one.
 * The readers live by subject in source_sum.c, source_store.c,
 * source_index.c, source_host.c and source_line.c, over the one walk of the
 * code that source.c gives them (source_code.h).
 */
#ifndef GPULAB_SOURCE_H
#define GPULAB_SOURCE_H

#include <stddef.h>

int source_is_identifier_char(char c);
/* Whether text is one identifier (`destX`; not `a + 1`, not `3`). */
int source_is_identifier_text(const char *text);
/* The parts of an identifier of n characters: its runs between underscores
 * and at a lower case letter's change to upper case (`in_pitch_bytes`: in,
 * pitch, bytes; `dOut`: d, Out; `blkX`: blk, X). Calls f(part, length,
 * arg) for each. */
void source_identifier_parts(const char *w, size_t n, void (*f)(const char *, size_t, void *), void *arg);
/* The first whole-word word in text at or after from, or NULL (in
 * source.c, with the words of a line's text). */
const char *text_find_word(const char *text, const char *from, const char *word);
/* text with every whole word a written as b and b as a (malloc'd). */
char *source_words_exchanged(const char *text, const char *a, const char *b);
/* text with its comments and literals blanked, newlines kept (malloc'd):
 * code alone, line for line, for a reader of a text already read. */
char *source_code_text(const char *text);

/* Skips the comment or literal that starts at text[*i] ("//", slash-star,
 * '"' or '\''), counting its newlines in *line; leaves *i on its last
 * character (a line comment: before its newline, which the caller counts);
 * returns 0 when none starts there. */
int source_skip_comment_or_literal(const char *text, size_t len, size_t *i, int *line);

/* The first line (from 1) of the file where an array the file declares
 * __constant__ is read with two subscripts in a product that is summed
 * (the mask in a convolution's sum: `acc += Mc[i][j] * N_ds[..][..]`, or
 * `sum = sum + ...`), with *count set to
 * how many such lines there are; 0 when there is none (a mask read through
 * a pointer, say) or the file cannot be read. */
int source_mask_read_line(const char *path, int *count);
/* The for loop around that read of the mask whose variable its
 * subscript `which` reads (0: the mask's row, 1: its column): the loop's
 * line, or 0. */
int source_mask_loop(const char *path, int which);

/* Whether lines first < second of the file lie in the braced body of one
 * loop (for, while, do; the innermost that holds both) with a
 * __syncthreads() on a line strictly between them: a write at first and a
 * read at second that race anyway race between iterations (the next
 * iteration's write against this one's read). Sets *loop_line (the loop's
 * first line) and *barrier_line; 0 when not so, or the file cannot be read. */
int source_loop_carried(const char *path, int first, int second, int *loop_line, int *barrier_line);
/* Where a __syncthreads() between a write of shared memory at write_line
 * and a read at a later read_line goes, at the level of the innermost
 * block that holds both (so every thread that reaches one reaches it):
 * after the last statement of that block, from the one that holds the
 * write on, that stores into the written array (the line where it ends,
 * returned: a second batch's load too), and before the one that holds the
 * read (its first line into *before_line); 0 when the two are in one
 * statement of it. */
int source_barrier_place(const char *path, int write_line, int read_line, int *before_line);
/* A __syncthreads() statement of that innermost block before the statement
 * that holds the write (`__syncthreads();` at the top of the channel loop,
 * above the load), which orders nothing between the two: its line, when
 * moving it leaves no other order undone (the block is no loop's body, or
 * another barrier follows the read in it); else 0. */
int source_barrier_before_write(const char *path, int write_line, int read_line);
/* The line of the closing brace of the braced for or while loop whose
 * header is on loop_line; 0 when none. */
int source_loop_close_line(const char *path, int loop_line);
/* A store at line that follows, in its block, an if with no else whose
 * body stores into the very same element (`if (...) ds_M[ty][tx] =
 * M[...]; ds_M[ty][tx] = 0.0f;`): it overwrites what the if stored, for
 * every thread (its `else` left out). The if's line; else 0. So too after
 * an `else;` (its body the empty statement: the store meant as its body
 * follows it): the else's line into *empty_else (else 0). */
int source_store_after_if_of_same_slot(const char *path, int line, int *empty_else);
/* In the body of the braced loop on loop_line, a __syncthreads() whose
 * statement comes right after another __syncthreads() (the second barrier
 * moved up to the first): its line, the other's into *first_line; else 0. */
int source_barrier_after_barrier(const char *path, int loop_line, int *first_line);
/* The lines of path that store into the array (`N_ds[...] = ...`), up to
 * max, into lines; how many. */
int source_store_lines_into(const char *path, const char *array, int *lines, int max);
/* The counter of the innermost for loop around line whose test bounds it
 * by a `channels` (`k < in.channels`), into name: the loop's line; 0 when
 * none. */
int source_channel_counter(const char *path, int line, char *name, size_t n);
/* An image's read at line whose index multiplies that counter and names
 * no `channels` (`k * in.height * in.pitch + row_i * in.pitch + col_i`): a
 * planar layout, a whole plane a channel, where the labs' images are
 * interleaved (a pixel's channels side by side). The words that say so;
 * NULL when not so. */
char *source_read_planar(const char *path, int line);
/* The line of a __syncthreads() that is the first statement after the
 * braced body of the loop whose header is on loop_line (a barrier meant
 * for the loop's end, written after it); 0 when there is none. */
int source_barrier_after_loop(const char *path, int loop_line);
/* The calls that order less than a block's threads (a warp's, or only
 * memory: `__syncwarp()`, the fences), NULL-ended: where a __syncthreads()
 * belongs they are no barrier for the block. */
extern const char *const source_weak_barriers[];
/* A barrier of less than the block (`__syncwarp()`, a memory fence) after
 * line read_line in the braced body of the loop whose header is on
 * loop_line: its line, its call into name (n bytes); else 0. */
int source_warp_sync_after(const char *path, int read_line, int loop_line, char *name, size_t n);
/* The same barrier of less than the block on lines first to last (where a
 * race's missing __syncthreads() belongs): its line, its call into name;
 * else 0. */
int source_weak_barrier_between(const char *path, int first, int last, char *name, size_t n);

/* The array that line (from 1) of the file stores into: the identifier
 * before the first '[' left of its first '=' (`ds_M[ty][tx] = ...`), into
 * out; 0 when the line has none or the file cannot be read. */
int source_stored_array(const char *path, int line, char *out, size_t n);
/* Whether the first store on line stores a value read from an array (`x[...]
 * = M[...]`: a load) or not (`= 0.0f`, a local's value): 1 or 0; -1 where
 * line stores nothing. */
int source_stored_value_reads_array(const char *path, int line);
/* The first store into a __shared__ array of a number other than 0
 * (`ds_M[ty][tx] = 1.0f;`, a tile's padding): its line, the number as
 * written into value; 0 when none. */
int source_tile_store_of_constant(const char *path, char *value, size_t n);
/* The sum of a kernel (the first `X += ...` inside a loop): *loop_line the
 * innermost loop around it (the dot product's), *reset_line a line inside
 * a braced loop around the sum that sets X to 0 again (the sum restarted
 * every time round; 0 when none). 1 when the file shows such a sum. */
int source_accumulator(const char *path, int *reset_line, int *loop_line);
/* The line that first sets the accumulator of source_accumulator's sum
 * (`float acc = 0.0f;`, `Pvalue = 0;`) before the sum, else 0. */
int source_accumulator_start(const char *path);
/* The sum after the loop it belongs in: where the last __syncthreads()
 * before the kernel's sum is in a braced loop that closes before the sum
 * (a phase loop whose brace closes after its loads), the sum's line, with
 * the loop's line and its closing brace's; 0 where the source does not
 * show it. */
int source_sum_after_barrier_loop(const char *path, int *loop_line, int *close_line);
/* An accumulator that starts from garbage: the line that declares the
 * accumulator of source_accumulator's sum inside a body without an initial
 * value, when nothing sets it before the sum (`float Pvalue;` then
 * `Pvalue += ...`); its name into name. 0 when it is set, or not declared
 * in the file. */
int source_accumulator_unset(const char *path, char *name, size_t n);
/* A kernel's local of a number type declared with no value (`int tx, ty =
 * threadIdx.y;`: tx), whose next mention in the kernel reads it, before
 * anything sets it: the declaration's line, the name into name, that
 * read's line into *read_line; else 0. */
int source_local_read_unset(const char *path, char *name, size_t n, int *read_line);
/* A tile meant to be shared that is not: the line of a kernel's array
 * declared without __shared__ (a per-thread array) that the kernel stores
 * into before a __syncthreads() and reads after it, its name into name;
 * 0 when none. */
int source_private_tile(const char *path, char *name, size_t n);
/* A variable of a kernel declared again in an inner block (a loop's body),
 * hiding the one an enclosing block declared, which is read after the
 * inner block ends: the inner declaration's line, the name into name,
 * the outer declaration's line into *outer_line and the first read of the
 * outer one after the inner block into *use_line; 0 when none. */
int source_shadowed_declaration(const char *path, char *name, size_t size, int *outer_line, int *use_line);
/* A copy given the address of a pointer where the pointer belongs: the
 * line of the first cudaMemcpy* call (cudaMemcpy, cudaMemcpy2D,
 * cudaMemcpyToSymbol, ...) one of whose data arguments is `&name` (casts
 * aside) with name declared a pointer; the call's name into call, the
 * pointer's into arg, *is_source 1 when it is the copy's source, 0 its
 * destination, *decl_line the pointer's declaration. 0 when none. */
int source_copy_of_pointer_address(const char *path, char *call, size_t call_n, char *arg, size_t arg_n,
                                   int *is_source, int *decl_line);
/* A symbol a cudaMemcpyToSymbol fills that the file declares __device__
 * (global memory), not __constant__: the declaration's line, the name
 * into name, *copy_line the copy's; 0 when none. */
int source_device_symbol(const char *path, char *name, size_t name_n, int *copy_line);
/* An allocation, a copy or a set sized by `sizeof(NAME)` with NAME
 * declared a pointer (`cudaMalloc(&d_P, sizeof(P))`: a pointer's 8 bytes,
 * not the data's): its line, the call and NAME, *decl_line NAME's
 * declaration; 0 when none. */
int source_sizeof_pointer(const char *path, char *call, size_t call_n, char *name, size_t name_n, int *decl_line);
/* A declaration of several names where one has a `*` and another, used
 * as a pointer (given to a cudaMemcpy, subscripted), does not (`float
 * *d_M = NULL, d_N = NULL`: d_N is a float): the line, the name, the type
 * word into decl; 0 when none. */
int source_pointer_list(const char *path, char *name, size_t name_n, char *decl, size_t decl_n);
/* The first line where the file's code reads builtin.component
 * (`threadIdx.y`), or 0 where it reads it nowhere. */
/* A statement that stores a cudaMalloc call's value in name (`d_M =
 * (float *)cudaMalloc((void **)&d_M, bytes);`): an error code, over the
 * address the call wrote through its first argument. Its line, the
 * call's name into call (n bytes); 0 when none. */
int source_pointer_from_call_result(const char *path, const char *name, char *call, size_t n);
/* A statement `name = other;` (a cast allowed): name made to point at
 * other's buffer. Its line, or 0. */
int source_pointer_copied_from(const char *path, const char *name, const char *other);
/* The line of the last copy of host data to the device (a cudaMemcpy,
 * cudaMemcpy2D... with cudaMemcpyHostToDevice; not a symbol's) before
 * line `line`: where a copy the program lacks belongs; 0 when none. */
int source_input_copy_before(const char *path, int line);
int source_reads_builtin(const char *path, const char *builtin, char component);
/* A copy given a pointer to a struct where its data belongs (`in`, which
 * the file uses as `in->pitch`, for `in->data`): its line, the call and
 * the name, *is_source 1 for the source side, and into member the member
 * another copy passes (`out->data`: data), or ""; 0 when none. */
int source_copy_of_struct(const char *path, char *call, size_t call_n, char *arg, size_t arg_n, char *member,
                          size_t member_n, int *is_source);
/* A read of a __shared__ array in the statement at sum_line (the sum)
 * whose subscripts vary with no thread coordinate, through the
 * assignments of their names (`N_ds[i][j]` where the thread's window is
 * `N_ds[threadIdx.y + i][threadIdx.x + j]`): every thread of a block
 * reads the same elements. The first such read's text into out and
 * sum_line, or 0; *every 1 when every __shared__ read there is one. */
int source_sum_read_thread_free(const char *path, int sum_line, char *out, size_t size, int *every);
/* A store that races with itself at line: where its index, traced back
 * through the assignments of its names in the kernel, uses blockIdx's
 * coordinate of an axis but not threadIdx's (or the other way round),
 * the sentence naming the assignment of the index's name that holds the
 * one and not the other (`Col` from threadIdx.y): threads that differ
 * only in the missing coordinate store to one element. NULL otherwise;
 * the caller frees it. */
char *source_index_coordinate_missing(const char *path, int line);
/* A name on line access (the first) whose value takes a block's coordinate
 * (blockIdx, through its assignments in the kernel) and that is none of
 * bounded[0..nbounded), nor computed from one of them or one of them from
 * it, where one of those is such a position too (a bounds test is there,
 * and it leaves this one out): into out, 1; 0 when none. */
int source_unbounded_coordinate(const char *path, int access, const char *const *bounded, int nbounded, char *out,
                                size_t size, char *counter, size_t counter_n);
/* The else of the if whose condition is on test_line: SOURCE_NO_IF (no
 * such if, or the file cannot be read), SOURCE_IF_NO_ELSE (it has none:
 * where the test is false, the statement does nothing), SOURCE_ELSE_HOLDS
 * (line, from 1, lies in the body of its else: `if (...) a = x; else a =
 * 0;`; not an `else if`), SOURCE_ELSE_ELSEWHERE (it has an else, and line
 * is not in it). */
enum { SOURCE_NO_IF, SOURCE_IF_NO_ELSE, SOURCE_ELSE_HOLDS, SOURCE_ELSE_ELSEWHERE };
int source_if_else(const char *path, int test_line, int line);
/* A dangling else: the if whose condition is on test_line has for its
 * body, unbraced, another if, and the else after that one's body is the
 * inner if's (C gives an else to the nearest if), not the outer's, which
 * has none. The else's line (the inner if's into *inner_line), or 0. */
int source_dangling_else(const char *path, int test_line, int *inner_line);
/* source_if_else(...) == SOURCE_ELSE_HOLDS */
int source_else_holds(const char *path, int test_line, int line);
/* An index computed before its inputs changed, for the load at line
 * (`T[..] = A[INDEX]`): the names of INDEX whose last assignment before
 * the load, in straight-line kernel code, was computed from a name that is
 * assigned again between that assignment and the load (`srcY` from
 * `destY`, and `destY` set again for a second batch): the words that
 * follow "the load at line N" ("reads with srcY, set at line 41 from
 * destY; ..."), naming them and their lines; NULL where the source does
 * not show it. The caller frees it. */
char *source_index_stale(const char *path, int line);
/* The same for the subscripts of the array the statement at line stores
 * into (`N_ds[destY][destX] = ...` with destX set from dest, and dest set
 * again for a second batch): "stores with destX, set at line 40 from
 * dest; ..."; NULL where the source does not show it. */
char *source_store_index_stale(const char *path, int line);
/* A flat index split the wrong way round for the store at line: its
 * `ARR[r][c] =` takes r from `X % W` and c from `X / W` (one X, one W), so
 * it walks the array column by column. The names into row and col (n
 * bytes each), their assignments' lines into *row_line and *col_line;
 * 1 when so, else 0. */
int source_split_swapped(const char *path, int line, char *row, char *col, size_t n, int *row_line, int *col_line);
/* The store at line into a 2D __shared__ array (`N_ds[destY][destX] =`)
 * whose row is the quotient and column the remainder of one flat index by
 * two different widths (`dest / w`, `dest % TILE_WIDTH`): the names,
 * their widths as written (n bytes each) and their assignments' lines;
 * *right 1 where the array's declared row length is the row's width, 2
 * the column's, -1 neither, 0 not found; 1, or 0 when the source does not
 * show that shape. */
int source_split_widths_differ(const char *path, int line, char *row, char *col, char *row_width, char *col_width,
                               size_t n, int *row_line, int *col_line, int *right);
/* The line that declares that sum's accumulator (`int Pvalue = 0;`, its
 * last declaration before the sum) when its type is an integer's; 0 when
 * it is another type, is not declared in the file, or there is no sum. */
int source_accumulator_integer(const char *path);
/* The line of that sum (`Pvalue += ...`), or 0. */
int source_sum_line(const char *path);
/* The kernel's output store (source_output_store_line) inside a loop
 * whose body holds the sum after it (the store of P moved into the phase
 * loop, before the phase's terms are added): the store's line, the loop's
 * and the sum's into *loop_line and *sum_line; else 0. Its last store
 * goes before its last terms, which never reach the output. Or, with
 * *before_loop 1, a store of the sum's name before the loop that holds
 * the sum (`P[...] = Pvalue;` above the phase loop): it stores the sum
 * before any term is added. */
int source_store_before_sum(const char *path, int *loop_line, int *sum_line, int *before_loop);
/* The kernel's sum under an if whose test compares an array read that
 * the sum's term reads too with a number (`if (Mc[i][j] > 0.0f) acc +=
 * Mc[i][j] * ...`): terms are left out by their value. The if's line;
 * its test and the read into test and read; else 0. */
int source_sum_term_tested(const char *path, char *test, size_t n, char *read, size_t read_n);
/* A sum assigned where it should be added to: the line of the first
 * `X = ...` statement inside a loop whose value is a product of array
 * reads without X itself (`Pvalue = ds_M[ty][i] * ds_N[i][tx];`), X into
 * name; 0 if none. */
int source_assigned_sum(const char *path, char *name, size_t n);
/* A local multiplied into itself (`Pvalue *= ...`) inside a loop of a
 * kernel, whose value before the loop is 0 and which nothing else in the
 * kernel adds to or sets again: a product from 0 stays 0. The `*=`'s
 * line, the name into name, the line that sets it to 0 into *start_line;
 * else 0. */
int source_product_from_zero(const char *path, char *name, size_t n, int *start_line);
/* The line of a kernel's first store into one of its pointer parameters
 * (`P[...] = ...`), or into a pointer member of a struct parameter
 * (`out.data[...] = ...`): where its output is written; 0 if none. */
int source_output_store_line(const char *path);
/* Line line's statement, a store that adds into what the array holds
 * (`P[i] += v;`, `atomicAdd(&P[i], v);`), written as a plain store (`P[i]
 * = v;`) into out: 1; else 0 (another statement, or out too small). */
int source_store_as_assignment(const char *path, int line, char *out, size_t n);
/* The kernel's output store (source_output_store_line) whose value is cast
 * to an integer type (`P[i] = (int)Pvalue;`, `int(Pvalue)`): the type's
 * word into cast, the line returned; else 0. */
int source_store_cast_to_integer(const char *path, char *cast, size_t n);
/* The line of a kernel that calls a function cutting a value to a range
 * (fminf, fmaxf, min, max, __saturatef, clamp, ...): where a result the
 * lab does not bound is bounded. Of several, the one whose value reaches
 * the output's store (on the store, or setting a name its value reads)
 * before an index clamped on the way; else the first; 0 if none. */
int source_value_cut_line(const char *path);
/* The same for a function that rounds a value to a whole number (rintf,
 * roundf, floorf, truncf, __float2int_rn, ...), or 0. */
int source_value_rounding_line(const char *path);
/* A kernel's pointer made another name for a __shared__ array (`float
 * (*ds_N)[TILE_WIDTH] = ds_M;`), and both names stored into: the stores
 * through the one overwrite the other's. The declaration's line; the names
 * into alias and shared, a store through each into *alias_store and
 * *shared_store; else 0. */
int source_alias_of_shared(const char *path, char *alias, size_t alias_n, char *shared, size_t shared_n,
                           int *alias_store, int *shared_store);
/* The line of the first read of the kernel's which-th pointer parameter
 * (0: the first, M in the matrix labs), `NAME[...]` not stored into; 0
 * when none. */
int source_input_read_line(const char *path, int which);
/* A pointer parameter of the kernel holding line, other than except, that
 * its body never names (`M` of MatrixMulKernel(M, N, P, ...) where the
 * tile load reads P): an input the kernel never reads. Its declaration's
 * line; its name into name; else 0. Where except is a member (`out.data`),
 * a parameter of its base's type whose member of that name the body reads
 * nowhere (`in.data`), into name, the parameter list's line returned. */
int source_kernel_input_unused(const char *path, int line, const char *except, char *name, size_t n);
/* A kernel's bounds test before a store whose clause `A < B` bounds a
 * column (column 1: `col_o`, `Col`, `x`) or a row (0) by an expression
 * naming `word` (`out.height` for "height"): its line, A and B into left
 * and right; 0 if none. */
int source_store_test_on(const char *path, const char *word, int column, char *left, char *right, size_t n);

/* Whether the if (1) or the for or while loop (2) on line `line` of path
 * controls a store into global memory (`out[i] = ...`, not into a
 * __shared__ array), *store_line its line, body the first and last lines
 * of what it controls; 0 when none does. */
int source_test_guards_store(const char *path, int line, int *store_line, int body[2]);

/* The first line of a store into `array` (`array[...] = ...`) in the body
 * of the if on line `line` (its else not counted); 0 when there is none. */
int source_if_guards_store_into(const char *path, int line, const char *array);

/* A kernel's parameter that a for header of its body assigns, as the
 * loop's counter (`for (k = 0; ...)` where k is the kernel's size k): the
 * line of that header, its name into
 * name, and a line that reads it as the size (the first before the
 * assignment, else after it) into *read_line; 0 when none. */
int source_parameter_assigned(const char *path, char *name, size_t size, int *read_line);

/* A for loop of a kernel whose bound is a local of the kernel (not
 * __shared__) that only an `if` on the thread's coordinates sets
 * (`if (tx == 0 && ty == 0) numPhases = ...;`): every other thread keeps
 * its own, unset value. The loop's line, the name into name, the line of
 * the first such store and of its if; 0 when none. */
int source_bound_set_by_some_threads(const char *path, char *name, size_t size, int *set_line, int *test_line);

/* An object-like #define whose value ends with `;` (`#define N 16;`),
 * used after it: its line, the name into name, the first use's line into
 * *use_line; 0 when none. */
int source_define_with_semicolon(const char *path, char *name, size_t n, int *use_line);

/* A function launched with <<< >>> that the file declares __device__ and
 * never __global__: its declaration's line (the name into name, the
 * launch's line into *launch_line), else 0. */
int source_device_function_launched(const char *path, char *name, size_t n, int *launch_line);

/* The k-th argument (from 0) of the call of call whose name is on line,
 * as written, into out: 1, or 0 where the source does not show it. */
int source_call_argument(const char *path, int line, const char *call, int k, char *out, size_t n);
/* The same argument's variable: its name past casts, `&` and `*`
 * (`(size_t)pitch * 2` -> pitch): 1, or 0 where it starts with none. */
int source_call_argument_name(const char *path, int line, const char *call, int k, char *out, size_t n);
/* A host variable that keeps the value its declaration gave it: nothing
 * assigns it after (`=`, `+=`, `++`) and its address is given to nothing
 * (`&name`, as cudaMallocPitch is given a pitch's). Its declaration's line
 * (its initialiser's text into init), or 0 where it is set, or the source
 * does not show its declaration. */
int source_variable_never_set(const char *path, const char *name, char *init, size_t init_n);
/* The k-th argument of the call of call on line, where it is one
 * variable (past casts) that keeps its declaration's value
 * (source_variable_never_set) and is declared on another line: that
 * line, the name and the initialiser's text into name and init, and into
 * *other_line another call of call given the same variable as its k-th
 * argument (0 if none); else 0. Where a copy's width or pitch is wrong,
 * that declaration is where its value was made. */
int source_argument_set_once(const char *path, int line, const char *call, int k, char *name, size_t name_n,
                             char *init, size_t init_n, int *other_line);
/* The line of the CUDA allocation given &name (cudaMalloc, cudaMallocPitch,
 * ..., and the host's cudaMallocHost, cudaHostAlloc; its name into call),
 * or 0 where none is. */
int source_allocation_of(const char *path, const char *name, char *call, size_t call_n);

/* A cudaMemcpyToSymbol (or FromSymbol) whose symbol's name is declared
 * again inside the calling function (`float Mc[5][5];`) before the call,
 * hiding the file-scope __constant__ or __device__ variable: the local
 * declaration's line (the name into name, the call's line and the file
 * scope declaration's), else 0. */
int source_symbol_hidden(const char *path, char *name, size_t n, int *copy_line, int *global_line);

/* For `PARAM.MEMBER` (member_of) read in the kernel at line `line`: the
 * object the launch passes as PARAM (into object) when the host code
 * gives it a brace initialiser (into init: `{0}`) and sets MEMBER nowhere
 * after (no `OBJ.MEMBER =`, no `&OBJ` passed on): that initialiser's line,
 * else 0. */
int source_member_never_set(const char *path, int line, const char *member_of, char *object, size_t n, char *init,
                            size_t init_n);
/* The host's line that gave the pointer member a kernel subscripts at line
 * access (`in.data[...]`, in a struct the launch passes by value) its value:
 * the last `OBJ.data = value;`, where OBJ is what the launch passes for the
 * parameter, else the assignment of OBJ whole (`Image_t OBJ = *in`:
 * *whole 1), which copied the member of another object. The member as the
 * kernel writes it, OBJ and the value's text into the buffers; 0 when
 * none. */
/* A member set from a value named for another member: host code sets
 * OBJECT.MEMBER from a value one of whose names is OTHER, or has it as a
 * '_'-separated part (`d_in_img.width = in_pitch_bytes / ...`), and none
 * is MEMBER; another object's OTHER is set from a value so named
 * (`d_out_img.pitch = out_pitch_bytes / ...`), and OBJECT's OTHER is
 * never set. The line; OBJECT, MEMBER and OTHER into object, member and
 * other, the other object's line into *sibling_line; else 0. */
int source_member_set_from_other(const char *path, char *object, size_t object_n, char *member, size_t member_n,
                                 char *other, size_t other_n, int *sibling_line);
/* A member set twice on one object, the second time from a value named
 * for another object (a '_'-separated part of its name the first object's
 * lacks: `d_in_img.pitch = out_pitch_bytes / ...`), whose member of that
 * name no line sets: the assignment meant for the other object. The second
 * line; the object, the member and the other object into object, member
 * and other, the first assignment's line into *first_line; else 0. */
int source_member_set_for_other_object(const char *path, char *object, size_t object_n, char *member,
                                       size_t member_n, char *other, size_t other_n, int *first_line);
/* A host call given a variable both as an address it writes through
 * (`&x`, casts allowed) and as a value it reads (`x`): the value is the
 * one from before the call (`cudaMallocPitch(&d, &pitch, pitch, rows)`).
 * The line; the call's and the variable's names into call and name; else
 * 0. */
int source_call_reads_its_output(const char *path, char *call, size_t call_n, char *name, size_t name_n);
/* An access at line `access` through a kernel parameter's member (`in.data[...]`)
 * whose launch passes an object (`*in`) that the host code never sets that
 * member of, where another object of the host code has it set
 * (`d_in_img.data = d_in;`): the launch was to pass that one. The launch's
 * line; `in.data` into member_of, `in` (what the launch passes, bare)
 * into passed, `d_in_img` into other, the line that sets its member into
 * *set_line; else 0. */
int source_launch_passes_other_object(const char *path, int access, char *member_of, size_t member_n, char *passed,
                                      size_t passed_n, char *other, size_t other_n, int *set_line);
int source_member_from_host(const char *path, int access, char *member_of, size_t member_n, char *object,
                            size_t object_n, char *value, size_t value_n, int *whole);
/* The host-to-device cudaMemcpy into the buffer the kernel launch passes
 * as its argument k (from 0: `<<<...>>>(d_M, d_N, ...)`, k 1: d_N): where
 * an input reached that buffer; its line, or 0. */
int source_copy_into_argument(const char *path, int k);
/* The line that declares the block of the launch at launch_line (its
 * second <<< >>> argument, `dim3 dimBlock(...)`), else launch_line. */
int source_launch_block_line(const char *path, int launch_line);

/* A name on line `line` of path that a `#define NAME VALUE` or a
 * `const int NAME = VALUE;` gives the number value: that definition's
 * line, the name into name; 0 when none does. */
int source_name_defined_as(const char *path, int line, long value, char *name, size_t n);
/* Whether line copy_line counts bytes with `sizeof(T)` where the
 * declaration of name at decl_line gives its elements another number type
 * (`sizeof(double)` for `__constant__ float Mc[...]`): T into used, the
 * declared type into declared; 1, else 0. */
int source_sizeof_other_type(const char *path, int copy_line, int decl_line, const char *name, char *used,
                             size_t used_n, char *declared, size_t declared_n);
/* A `dim3 NAME = (A, B);`: the brackets hold a comma expression, whose
 * value is B alone. Its line; the name into name, B into last; else 0. */
int source_dim3_comma_init(const char *path, char *name, size_t n, char *last, size_t last_n);
/* A launch whose grid (*block 0) or block (*block 1) is a lone name the
 * file declares an integer (`int dimGrid = ...;`): a count of that many
 * in x and 1 in y and z. The declaration's line; the name into name, the
 * launch's line into *launch_line; else 0. */
int source_launch_scalar_dim(const char *path, char *name, size_t n, int *launch_line, int *block);
/* A launch whose grid (*block 0) or block (*block 1) is one member of a
 * dim3 the file declares (`<<<dimGrid.x, dimBlock>>>`): one count, that
 * many in x and 1 in y and z. The launch's line; the argument into arg;
 * else 0. */
int source_launch_dim_member(const char *path, char *arg, size_t n, int *block);
/* A built-in coordinate or size (threadIdx, blockIdx, blockDim, gridDim)
 * read in a function that is neither __global__ nor __device__ (`dim3
 * dimGrid(width / blockDim.x, ...)` in the host's code): they exist only in
 * a kernel. Its line; the built-in's name into builtin; else 0. */
int source_builtin_in_host(const char *path, char *builtin, size_t n);
/* The file's `#define NAME NUMBER` lines (an integer, object-like): their
 * names, values and lines, at most max; how many. */
int source_number_defines(const char *path, char (*names)[48], long *values, int *lines, int max);
/* A name on line that a #define of the file makes an expression (`#define
 * BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)`) in which exactly one name
 * is one the file sets to a number (`#define O_TILE_WIDTH 32`; lab.h's
 * are not the file's): that definition's line; the number's name into
 * name, the name on line into via, the expression into text; else 0. */
int source_name_defined_through(const char *path, int line, char *name, size_t n, char *via, size_t via_n,
                                char *text, size_t text_n);
/* The same for the launch's grid (which 0, its first argument) or block
 * (which 1): the line of `dim3 NAME...` that declares it, else launch_line. */
int source_launch_dim3_line(const char *path, int launch_line, int which);
/* In source_host.c. The first call in host code that fills memory through
 * name as a whole (memset, memcpy, cudaMemcpy, cudaMemset: `memset(out->data,
 * 0, ...)`), its first argument naming it: its line, the function into
 * call; the line of a cudaMemcpy2D into name, into *copy2d_line (0 when
 * none); 0 when no such call. */
int source_host_fill_of(const char *path, const char *name, char *call, size_t call_n, int *copy2d_line);
/* Where the count of one axis (0 x, 1 y, 2 z) of the launch's grid (which
 * 0) or block (which 1) comes from, where its dim3 is declared with a lone
 * name there (`dim3 dimGrid(tiles, tiles);`): the line of that name's
 * last assignment before it, then of the first name of that value set in
 * the function before it, and so on (`int tiles = (n + ...) / ...;`, `int
 * n = j < l ? j : l;`); lines[] and names[] nearest first, at most max;
 * how many. */
int source_launch_count_origins(const char *path, int launch_line, int which, int axis, int *lines,
                                char (*names)[48], int max);
/* The line of the grid's (which 0) or block's (which 1) declaration
 * before the launch at launch_line where it is given no size (`dim3
 * dimBlock;`: 1 x 1 x 1), else 0. */
int source_launch_dim3_unsized(const char *path, int launch_line, int which);
/* The lines before the launch at launch_line that set one member of its
 * grid (which 0) or block (which 1), `dimGrid.y = ...` (axis 'y'), at most
 * max, in order; how many. The dim3's name into name ("" where the
 * launch's argument is no lone name). */
int source_launch_dim3_sets(const char *path, int launch_line, int which, char axis, int *lines, int max,
                            char *name, size_t name_n);
/* A function that allocates into its own pointer parameter, passed by
 * value (`void alloc(float *p, size_t n) { cudaMalloc((void **)&p, n); }`),
 * and a call of it that passes a pointer there (`alloc(d_P, bytes);`):
 * the allocation sets the function's copy, and the caller's pointer stays
 * as it was. The function's line; its name, the parameter, the
 * allocation's line, the argument as written and the call's line; else 0. */
int source_allocation_into_copy(const char *path, char *func, size_t func_n, char *param, size_t param_n,
                                int *alloc_line, char *arg, size_t arg_n, int *call_line);
/* The first kernel launch after line that passes name (bare: `d_P`, not
 * `d_P + 1`) as an argument, or an object one of whose members the file
 * sets to name (`d_in_img.data = d_in;`): its line, or 0 (a copy made
 * before the launch that computes what it copies). */
int source_launch_after(const char *path, int line, const char *name);
/* A cudaMemcpyToSymbol whose symbol's element type is another number type
 * than its source's (`__constant__ int Mc[5][5]` filled from `const float
 * *mask`): the copy moves bytes, not values. The symbol's declaration's
 * line; the two names and their types (type_n bytes each) and the copy's
 * line; else 0. */
int source_symbol_element_type_mismatch(const char *path, char *symbol, size_t symbol_n, char *symbol_type,
                                        char *source, size_t source_n, char *source_type, size_t type_n,
                                        int *copy_line);
/* The line of the first runtime call that stores into the buffer name
 * (its first argument: a cudaMemcpy's, a cudaMemset's, their 2D and async
 * forms), 0 when none does; then *beside is the line of the last copy to
 * the device before the first launch given name (0 when none). */
int source_fill_of(const char *path, const char *name, int *beside);
/* A pointer parameter, not const, of the function that holds the file's
 * last launch (the entry point's output, `float *P`, `image *out`), that
 * no copy names (itself or a member of it, either way round, a host
 * memcpy's too), no store of the host's fills and no launch takes: the
 * result is never brought back to it. Its
 * declaration's line; its name into name, the launch's line into
 * *launch_line; else 0. */
int source_output_never_filled(const char *path, char *name, size_t n, int *launch_line);
/* Whether line n subscripts with var both offset (`Mc[j + MASK_RADIUS]`)
 * and bare (`N_ds[tx + j]`): the offset as written ("+ MASK_RADIUS") into
 * offset, the first bare subscript ("[tx + j]") into bare. 0 when not. */
/* The line of an `if` among the three after line access whose condition
 * tests two or more of the names in access's subscripts (`if (Row < j &&
 * mCol < k)` after `float v = M[Row * k + mCol];`): the bounds test the
 * access comes before. 0 when none. */
int source_test_after_access(const char *path, int access);
/* A comparison in parentheses in the statement of the access at line
 * access that names its index's names, used as a value there (`M[Row * k
 * + mCol] * (Row < j && mCol < k)`): not an if's or a call's, not a ?:'s
 * condition nor the left of an && or ||, which would keep the access from
 * being made. The access is made whatever it holds. Its text into out and
 * the line, or 0. */
int source_test_beside_access(const char *path, int access, char *out, size_t size);
/* An `if` in the eight lines before the access at line `access`, in its
 * kernel, whose condition compares two or more of the names the access's
 * subscripts use and whose body ends before it (the access moved out of
 * the braces of its bounds test): its line, *body_end_line where its body
 * ends; 0 when none. */
int source_test_before_access(const char *path, int access, int *body_end_line);
/* A name on line n that is name but for its last part (`row_i` on a line,
 * for `row_o`): into out (size bytes); 1 if there is one, else 0. */
int source_line_sibling_name(const char *path, int n, const char *name, char *out, size_t size);
/* A line of path written as line n is but for one name where line n has
 * name (`N_ds[destY][destX] = I[...];` for `... = P[...];`): that name
 * into other (size bytes), its line returned; else 0. */
int source_twin_with_other_name(const char *path, int n, const char *name, char *other, size_t size);
/* The array a subscript of line n that uses name reads or writes: the
 * first identifier of its base (`out` of `out.data[row_o * ...]`), into
 * out; 1 if there is one, else 0. */
int source_subscripted_base(const char *path, int n, const char *name, char *out, size_t size);
int source_offset_missing(const char *path, int n, const char *var, char *offset, size_t n_offset, char *bare,
                          size_t n_bare);
/* The first cudaMemcpyToSymbol into symbol: its line (0: none), its size
 * argument as written into size_arg (n bytes). */
int source_symbol_copy_line(const char *path, const char *symbol, char *size_arg, size_t n);
/* The first cudaMemcpyFromSymbol out of symbol (a copy the other way):
 * its line, or 0. */
int source_symbol_copied_out(const char *path, const char *symbol);
/* A __shared__ array on line access with a subscript that varies with a
 * block's coordinate, through the assignments of its names (`ds_N[i][Col]`,
 * Col made from blockIdx.x): a tile indexed by a global row or column.
 * The array's name and that subscript's text; line access, or 0. */
int source_tile_subscript_global(const char *path, int access, char *name, size_t n, char *sub, size_t sub_n);
/* The __shared__ array that line `access` indexes (`N_ds[...]`): its
 * declaration's line (0: none), its name into name (n bytes), and in
 * *size_line the line that sets its first dimension where that is a name
 * (`const int w = ...`, `#define w ...`), else 0. */
int source_shared_array_at(const char *path, int access, char *name, size_t n, int *size_line);

/* Statements almost never meant, which a compiler's warnings point at:
 * a for loop whose step changes a name its test does not read (`for (int
 * j = 0; j < n; i++)`: name i), an `if` or a `while` whose test assigns
 * (`if (x = 0)`). The first one's line, its kind, its header into text;
 * 0 when none. */
/* And a for loop stepped by a name that its body multiplies the variable
 * by again (`ph += TILE_WIDTH` beside `ph * TILE_WIDTH`: scaled twice):
 * name the variable, text the step, *second_line the line that scales. */
/* And a test made of two parts joined by a comma (`if (a < n, b < m)`):
 * the comma operator throws the first part's value away; name the part
 * thrown away. And a clause that chains two comparisons (`0 <= r < n`:
 * C reads (0 <= r) < n); name the clause, fix it as it should read
 * (`0 <= r && r < n`). */
/* And an if's `&&` clause that is an integer name alone beside one that
 * bounds another name (`if (Row && Col < Width)`): name the name, fix it
 * as it should read (`Row < Width`). */
/* And an if's clause that compares a bitwise `|` of two names with a
 * bound (`(Row | Col) < Width`): name the clause, fix it as the two
 * comparisons it stands for. */
enum { SLIP_NONE, SLIP_LOOP_STEP, SLIP_ASSIGN_TEST, SLIP_STEP_SCALED, SLIP_COMMA_TEST, SLIP_CHAINED_TEST,
       SLIP_BARE_CLAUSE, SLIP_BITWISE_CLAUSE };
int source_statement_slip(const char *path, int *kind, char *text, size_t size, char *name, size_t name_n,
                          char *fix, size_t fix_n, int *second_line);
/* A ceil() of a division of two integers (`ceil(l / TILE_WIDTH)`: the
 * division rounds down before ceil sees it): its line, the argument into
 * arg; 0 when none. */
int source_integer_ceil(const char *path, char *arg, size_t size);
/* A name on line used where C wants an integer (an array's subscript, an
 * operand of `%`) that the file declares a float or a double (the last
 * such declaration before it: a parameter's, a local's): that
 * declaration's line, the name and its type's word into name and type;
 * else 0. The compiler's error is at the use; the declaration is what to
 * change. */
int source_floating_index(const char *path, int line, char *name, size_t name_n, char *type, size_t type_n);
/* A `&name` on line whose name the file declares with exactly type (the
 * words before its declarator: `int`, `unsigned int`), the last such
 * declaration before it: that declaration's line, the name into name;
 * else 0. Where the compiler refuses a `type *` for another pointer there,
 * the declaration is what to change. */
int source_address_of_type(const char *path, int line, const char *type, char *name, size_t name_n);
/* Where a name comes from (source_names.c): the first declaration of
 * name in path (a `#define name`, or name after a type: a variable, a
 * parameter, a function, an array), its line, and into *block_close_line
 * the line of the '}' that ends the block it is declared in (0 at file
 * scope); 0 when path declares none. */
int source_declaration_of(const char *path, const char *name, int *block_close_line);
/* The same, with the line of the '{' that opens that block (a parameter's:
 * its function's body) into *block_open_line (0 at file scope). */
int source_declaration_block(const char *path, const char *name, int *block_open_line, int *block_close_line);
/* A name path declares that is one slip from name (a character more,
 * fewer or changed, two neighbours swapped, or letter case): its line,
 * the name into out; else 0. Names of fewer than 3 characters: 0. */
int source_near_declaration(const char *path, const char *name, char *out, size_t size);
/* The line of path's `#include` of header ("lab.h", <stdio.h>), or 0. */
int source_includes(const char *path, const char *header);
/* A kernel the skeleton declares whose parameters path declares with the
 * same names in another order (`MatrixMulKernel(const float *N, const
 * float *M, ...)` for the skeleton's M, N): the line of path's
 * declaration, the kernel's name, path's order and the skeleton's, the
 * names joined by ", " (n bytes each); else 0. A launch that passes the
 * arguments in the skeleton's order then gives each the other's name. */
int source_parameters_reordered(const char *path, const char *skeleton, char *kernel, size_t kernel_n, char *have,
                                char *want, size_t n);
/* The name the first assignment on line assigns (`dest = ...`, `x +=
 * ...`, `a[i] = ...`: dest, x, a) into out: line, or 0. */
int source_assigned_at(const char *path, int line, char *out, size_t n);
/* A name declared with a number (`int numPhases = 0;`) whose only other
 * assignment lies under an if with no else taking it (`if (k > TILE_WIDTH)
 * numPhases = ...;`): where the test is false it keeps that number. The
 * assignment's line, the if's line into *test_line, the number into init;
 * else 0. */
int source_set_only_under_test(const char *path, const char *name, int *test_line, char *init, size_t init_n);
/* The last assignment of name in path (a declaration's too) when its
 * value is one integer division with no round-up term (`k / TILE_WIDTH`,
 * or `(k - 1) / TILE_WIDTH`, the round-up `(k - 1) / T + 1` without its
 * `+ 1`; not `(k + TILE_WIDTH - 1) / TILE_WIDTH` nor a ceil): its line, the value
 * into value; else 0. A count of tiles made so leaves out a last partial
 * one. */
int source_count_rounded_down(const char *path, const char *name, char *value, size_t n);
/* Name's assignment (its last, `name = VALUE;`) whose value ends in a
 * top-level `- 1` (sign < 0) or `+ 1` (sign > 0) term (`numPhases = (k +
 * TILE_WIDTH - 1) / TILE_WIDTH - 1`): a count made one too small or too
 * large. Its line, the value into value; else 0. */
int source_count_off_by_one(const char *path, const char *name, int sign, char *value, size_t n);
/* A name in the brackets of line (an array's bounds) that path declares
 * before it without const (`int w = TILE_WIDTH + MASK_WIDTH - 1;` for
 * `__shared__ float N_ds[w][w]`): the declaration's line, the name into
 * name; else 0. An array's bounds must be constants. */
int source_bound_not_constant(const char *path, int line, char *name, size_t n);
/* A launch of a kernel of path that passes two arguments each named for
 * the other's parameter (`pitched_conv_kernel<<<...>>>(d_out_img,
 * d_in_img)` for the parameters (in, out): a name's parts, split at '_'
 * and at a lower case letter before an upper case one, letter case
 * aside): the launch's line, the kernel's name, the two arguments as
 * written and the parameters they go to (n bytes each); else 0. */
int source_launch_arguments_crossed(const char *path, char *kernel, size_t kernel_n, char *first, char *second,
                                    char *first_param, char *second_param, size_t n);
/* A launch whose arguments, three or more of them out of place, are each
 * named for another of the kernel's parameters (`(d_P, d_M, d_N, width)`
 * for (M, N, P, Width)): the kernel's name, where each went ("d_P as its
 * `M`, d_M as its `N` and d_N as its `P`") and the arguments in the
 * parameters' order; the launch's line, or 0. */
int source_launch_arguments_permuted(const char *path, char *kernel, size_t kernel_n, char *said, size_t said_n,
                                     char *right, size_t right_n);
/* A launch that passes one plain name for two of the kernel's parameters
 * (`(d_in_img, d_in_img)` for (in, out)), where a name declared beside it
 * (`Image_t d_in_img = *in, d_out_img = *out;`) goes to none of the
 * launch's arguments, or, the name being one of the two parameters' own
 * (`width` for (height, width)), the other's name is declared in the
 * launching function and passed nowhere: the launch's line; the kernel,
 * the name, the two parameters, the name to pass (n bytes each) and its
 * declaration's line into *sibling_line; else 0. */
int source_launch_argument_twice(const char *path, char *kernel, char *arg, char *first_param, char *second_param,
                                 char *sibling, size_t n, int *sibling_line);
/* A name on line that path declares (elsewhere) as a pointer to const
 * (`const float *d_M = NULL, *d_N = NULL;`), the declaration in scope at
 * the line (the function's own parameter, not another function's of the
 * same name): the declaration's line, the name into name, *parameter 1
 * where it is a parameter of the function; else 0. Where the compiler
 * refuses a const pointer for a `void *` there, the declaration is what
 * to change, or, for an input the function takes as const, the name. */
int source_const_pointer_on_line(const char *path, int line, char *name, size_t n, int *parameter);
/* The one pointer parameter, not const, of the function around line
 * (`float *P` of `basic_matmul(const float *M, const float *N, float *P,
 * int width)`), into name; 0 when there is not exactly one. */
int source_function_output_pointer(const char *path, int line, char *name, size_t n);
/* A name the line subscripts more times than its declaration gives it
 * dimensions (`ds_M[ty][tx]` where `ds_M[TILE_WIDTH * TILE_WIDTH]` is
 * declared, each `*` of a pointer counted as one): the compiler stops at
 * the subscript (g++: "invalid types 'float[int]' for array subscript",
 * nvcc: "expression must have pointer-to-object type"), the declaration's
 * line is returned, the name into name, the counts into *declared and
 * *used; else 0. */
int source_subscripts_past_declaration(const char *path, int line, char *name, size_t n, int *declared, int *used);
/* An array on line access with a subscript that holds counter and more
 * (`Mc[ty + i][tx + j]`, counter j) where the array's declaration has, in
 * that place, the very bound the counter's loop runs to (`Mc[MASK_WIDTH]
 * [MASK_WIDTH]`, `j < MASK_WIDTH`): the loop keeps the counter inside
 * that dimension, and what the subscript adds takes it past. The array's
 * name, the subscript's text as written, its place (from 0) and
 * the declaration's count of dimensions; the declaration's line, or 0. */
/* An array on line access subscripted by counter alone in one place
 * (`Mc[i][j]`, counter j): its name, that place's declared bound as
 * written (`MASK_WIDTH`), the place (from 0) and its count of dimensions;
 * the declaration's line, or 0. */
int source_counter_bare_subscript(const char *path, int access, const char *counter, char *array, size_t an,
                                  char *dim, size_t dn, int *which, int *dims);
int source_counter_subscript_extra(const char *path, int access, const char *counter, const char *bound,
                                   char *array, size_t an, char *sub, size_t sn, int *which, int *dims);
/* A name declared `bool` that the file sets to arithmetic (`numPhases =
 * (k + TILE_WIDTH - 1) / TILE_WIDTH;`) or uses as a loop's bound (`ph <
 * numPhases`): the declaration's line, the name, and that use's line
 * into *use_line; else 0. A bool holds 0 or 1: every count from 1 on is 1. */
int source_bool_holding_count(const char *path, char *name, size_t n, int *use_line);
/* The first line of path with code on it (after the comments), or 0. */
int source_first_code_line(const char *path);
/* Statements that do not do what they read as (source_statement.c): a
 * statement in a function's body that only names a function, without
 * calling it (`__syncthreads;`: EFFECT_NOT_CALLED), or only compares
 * (`Pvalue == 0;`: EFFECT_COMPARISON); its line and text, the kind into
 * *kind; else 0. */
enum { EFFECT_NONE, EFFECT_NOT_CALLED, EFFECT_COMPARISON };
int source_statement_without_effect(const char *path, int *kind, char *text, size_t size);
/* A for loop's counter (the name its header's third clause steps) that its
 * body steps or assigns too (`M[Row * Width + ph++ * TILE_WIDTH]` inside
 * `for (...; ...; ++ph)`): each pass moves it twice. The line of the
 * body's step, the name, and the loop's line into *loop_line; else 0. */
int source_loop_counter_stepped_in_body(const char *path, char *name, size_t n, int *loop_line);
/* A `continue` or `break` of the loop that holds the __syncthreads() at
 * barrier_line, before it in the loop's body: the threads that take it
 * skip that barrier (the rest of the block waits there for them). Its
 * line, the word into word; else 0. */
int source_jump_past_barrier(const char *path, int barrier_line, char *word, size_t n);
/* An array read with a name added after its bracket (`I[(y * width + x) *
 * channels] + k`) where the file reads the same array with that name
 * inside (`I[(y * width + x) * channels + k]`): the bracket closes too
 * early, and the name is added to the value. The read's line, its text
 * into read, the name into term, the other read's line into
 * *sibling_line; else 0. */
int source_term_outside_subscript(const char *path, char *read, size_t read_n, char *term, size_t term_n,
                                  int *sibling_line);
/* A `return` under an if in the host function that launches the kernel,
 * before its first launch: where the test holds, the function ends before
 * any kernel runs. The return's line, the if's into *test_line, the
 * launch's into *launch_line; else 0. */
int source_return_before_launch(const char *path, int *test_line, int *launch_line);
/* A conditional whose branches are the wrong way round, for the read at
 * line: `T = (TEST) ? 0.0f : A[...]`, or `if (TEST) T = 0.0f; else T =
 * A[...];` with line the else's, where TEST is a bounds test (it
 * compares), the read goes through a name of it and the other branch reads
 * no array: the read is made exactly where the test says it lies outside.
 * The test's text into test (n bytes), its line into *test_line (line
 * itself for the conditional expression); 1 when so, else 0. */
int source_read_in_false_branch(const char *path, int line, char *test, size_t n, int *test_line);
/* A kernel's integer declared from a fraction: `int NAME = ... TERM ...;`
 * where TERM divides (or multiplies) a defined number (in path, or in
 * header: the lab's lab.h, or NULL) by a floating literal and is no whole
 * number (`MASK_WIDTH / 2.0`, 2.5): the sum is a floating value the int
 * truncates toward 0. The line; NAME, TERM as written and TERM's value into
 * name, term and *value; else 0. */
/* An integer division of a defined number by a variable, each a whole
 * operand (`ph < TILE_WIDTH / Width`): 0 whenever the variable is larger,
 * where the count of tiles is the other way round. The line; the
 * constant's name, the variable's and the constant's value (from the file
 * or header); else 0. */
/* A `#define NAME NUMBER` in the file of a name the lab's header defines
 * as another number (`#undef MASK_WIDTH` / `#define MASK_WIDTH 3`, where
 * lab.h has 5): the lab's harness, datasets and expected outputs keep the
 * header's. The line; the name, the file's value and the header's; else 0. */
int source_redefines_header_number(const char *path, const char *header, char *name, size_t name_n, long *mine,
                                   long *theirs);
/* A brace initializer of a struct (`Image_t d_in_img = {in->width,
 * in->height, in->channels, in->pitch, in->data}`) whose element for one
 * field names another of its fields (pitch given `in->channels`): a brace
 * initializer fills the fields in their declared order (the struct from
 * the file or the header). The line; the object, the field, what it was
 * given and the fields' order; else 0. */
int source_initializer_out_of_order(const char *path, const char *header, char *object, size_t object_n,
                                    char *field, size_t field_n, char *given, size_t given_n, char *order,
                                    size_t order_n);
/* A kernel's plain assignment of a variable (`dest = ...;`, not its
 * declaration) whose value nothing reads (no read after it before it is
 * set again, nor, in a loop, at the body's start in the next pass), after
 * reads of the variable in the same block since its last assignment
 * (`destY = dest / w;` above it): those reads took the old value, and the
 * assignment comes too late. Its line; the name and the reads' lines (at
 * most max_reads) into name and read_lines; else 0. */
int source_assignment_too_late(const char *path, char *name, size_t name_n, int *read_lines, int max_reads,
                               int *nreads);
/* A host variable given as the size of a cudaMalloc (or a copy's or a
 * fill's count) and declared with an integer type narrower than an int
 * (`unsigned short bytes`): a size past its most wraps round. The
 * declaration's line; the name, the type, its most, the call and its
 * line; else 0. */
int source_size_in_narrow_type(const char *path, char *name, size_t name_n, char *type, size_t type_n, long *most,
                               char *call, size_t call_n, int *call_line);
/* A kernel's local declared with an integer type narrower than an int and
 * set from a thread's or a block's coordinate (`unsigned char Row =
 * blockIdx.y * blockDim.y + threadIdx.y`): past its most an index wraps
 * round. The declaration's line; the name, the type and its most; else 0. */
int source_index_in_narrow_type(const char *path, char *name, size_t name_n, char *type, size_t type_n, long *most);
/* A file with more `{` than `}`: the last block whose `}` (by the
 * braces) stands at another indentation than the block's own line, an
 * outer block's brace that closes it (`if (...) {` at 4, closed by the
 * kernel's `}` at 0). The block's line; the line of the brace that closes
 * it and the last line of code before that brace; else 0. */
int source_brace_left_open(const char *path, int *closed_by, int *add_after);
/* A term of a kernel's sum in a for loop (`Pvalue += ... + ds_M[ty][i +
 * 1] * ds_N[i][tx]`) whose two factors are array reads that reach the
 * loop's counter at different offsets (i + 1 against i): the two factors
 * of one product of a dot product step together. The line; the term, the
 * two arrays, their offsets and the counter; else 0. */
int source_product_steps_apart(const char *path, char *term, size_t term_n, char *first, size_t first_n,
                               char *second, size_t second_n, long *first_off, long *second_off, char *counter,
                               size_t counter_n);
/* The kernel's output store (source_output_store_line) inside a for loop
 * whose counter its line does not reach, while a read in the loop's body
 * subscripts with the counter (the passes compute different values: a
 * channel's): every pass stores to the same elements. The store's line;
 * the counter, the loop's line and the read's; else 0. */
int source_store_misses_counter(const char *path, char *counter, size_t counter_n, int *loop_line, int *read_line);
/* The launch at launch_line (`NAME<<<...>>>(args)`) and its kernel's
 * definition: the k-th (from 0) parameter as declared and the k-th
 * argument as written, and the kernel's name. The definition's line, or 0. */
int source_kernel_parameter(const char *path, int launch_line, int k, char *kernel, size_t kernel_n, char *param,
                            size_t param_n, char *arg, size_t arg_n);
/* The same launch's k-th parameter, a name subscripted in its kernel's
 * body: the line of the body's first store through it (`P[...] = ...`,
 * `+=`), 0 when the body never stores through it, -1 where the source does
 * not show (no such launch or definition). The kernel's name into kernel,
 * the parameter's into name, the definition's line into *def_line. */
int source_launch_parameter_stored(const char *path, int launch_line, int k, char *kernel, size_t kernel_n,
                                   char *name, size_t name_n, int *def_line);
/* A write of shared memory at write_line and a later read at read_line
 * with no __syncthreads() between them, and one after the read in the
 * same loop's body (or kernel): the barrier meant to keep the reads after
 * the stores stands after them. Its line, or 0. */
int source_barrier_after_read(const char *path, int write_line, int read_line);
/* A cudaMalloc (or cudaMallocPitch) of a pointer to one type whose size,
 * as written or in the name's value, counts another type's bytes
 * (`bytes = width * width * sizeof(double)` for `float *d_M`). The
 * sizeof's line; the buffer, its type, the type sized and the allocation's
 * line; else 0. */
int source_size_of_other_type(const char *path, char *buffer, size_t buffer_n, char *type, size_t type_n,
                              char *sized, size_t sized_n, int *alloc_line);
int source_constant_over_size(const char *path, const char *header, char *constant, size_t constant_n, char *size,
                              size_t size_n, long *value);
int source_int_from_fraction(const char *path, const char *header, char *name, size_t name_n, char *term,
                             size_t term_n, double *value);
/* A shift whose right side is a sum, in an assigned value: `by << 4 + ty`,
 * which C reads as `by << (4 + ty)` (+ and - bind more tightly than << and
 * >>). The line; the text as written, and the reading meant (`(by << 4) +
 * ty`), into text and meant; else 0. */
int source_shift_of_sum(const char *path, char *text, size_t size, char *meant, size_t meant_n);
/* The first line of a kernel's body that subtracts into a name (`x -=`):
 * where a sum whose every element came out negated takes its terms away;
 * 0 if none. */
int source_subtracting_line(const char *path);
/* A kernel's pointer parameter that its body steps (`++M`, `M++`, `M +=`:
 * in a loop's header, say) and also indexes (`M[...]`): each step moves
 * where every later index starts. The line of the step; the name into
 * name, the line of an index into *index_line; else 0. */
int source_pointer_parameter_stepped(const char *path, char *name, size_t n, int *index_line);
/* A name a for loop's test reads (its bound), declared with a value in the
 * loop's function and set again only after the loop's body (`numPhases =
 * ...` moved below the phase loop): the loop runs on the declared value.
 * The line that sets it after; the name into name, the loop's line into
 * *loop_line; else 0. */
int source_bound_set_after_loop(const char *path, char *name, size_t n, int *loop_line);
/* A round-up written `(A + B - 1) / D` whose divisor D is another word
 * than B, the size it rounds up by (`(k + TILE_WIDTH - 1) / k`, or
 * `(width + MASK_WIDTH - 1) / TILE_WIDTH`): the two must be one size. The
 * line; B and D into by and divisor, and into *divisor_wrong 1 where B is a
 * number defined in the file or in header (lab.h) and D is not (the
 * divisor is the slip), 0 where D is and B is not (the round-up is), -1
 * where that does not tell; else 0. */
int source_round_up_mismatch(const char *path, const char *header, char *by, size_t by_n, char *divisor,
                             size_t divisor_n, int *divisor_wrong);
/* A phase loop (`for (int ph = 0; ph < numPhases; ++ph)`) whose body steps
 * by a size times its counter (`ph * TILE_WIDTH`), and whose count is set
 * before it as a quotient by another divisor (`... / (blockDim.x *
 * blockDim.y)`): the phases are counted in other units than they step in.
 * The count's line; the divisor as written (blanks out) and the step into
 * divisor and step, the loop's line into *loop_line; else 0. */
int source_phase_count_divisor(const char *path, char *divisor, size_t dn, char *step, size_t sn, int *loop_line);
/* A kernel's `while (TEST)` whose body changes no name TEST reads, calls
 * nothing and jumps nowhere out (a bounds test written `while` for `if`):
 * once TEST holds it holds for ever. The line; TEST into test; else 0. */
int source_while_never_changes(const char *path, char *test, size_t n);
/* A kernel's for loop with no step in its header (`for (int ph = 0; ph <
 * n; )`) whose body changes no name of its test, calls nothing and jumps
 * nowhere out: it never ends. The line; its counter into counter; else 0. */
int source_for_never_steps(const char *path, char *counter, size_t n);
/* A kernel's `NAME += VALUE;` in a loop, where VALUE reads NAME again
 * (`Pvalue += fmaf(a, b, Pvalue);`): each pass adds the sum to itself.
 * Its line; the name and the value as written into name and value; else 0. */
int source_sum_adds_itself(const char *path, char *name, size_t name_n, char *value, size_t value_n);
/* A kernel's for loop started at a negative value (`int i = -MASK_RADIUS`)
 * whose counter a subscript of its body adds to a thread's coordinate
 * (`N_ds[threadIdx.y + i]`): the first threads index below 0. Its line;
 * the counter and the start into counter and start, the subscript's
 * line into *read_line; else 0. */
int source_loop_starts_negative(const char *path, char *counter, size_t n, char *start, size_t start_n, int *read_line);
/* A name of one axis given another axis's built-in coordinate alone: a
 * short name (`bx = blockIdx.y`, `ty = threadIdx.x`) or one whose last
 * part is the axis (`blk_x = blockIdx.y`, `tidY = threadIdx.x`); not `ty =
 * threadIdx.x / 16`, a flat block split, which may be meant. The line; the name and the
 * built-in into name and builtin; else 0. */
int source_axis_name_swapped(const char *path, char *name, size_t name_n, char *builtin, size_t builtin_n);
/* A __shared__ array a kernel adds into (`ds_N[ty][tx] += ...`) and never
 * stores with a plain `=`: shared memory starts with whatever it held, and
 * each pass adds to the last. The line; the array's name into name; else 0. */
int source_shared_added_never_stored(const char *path, char *name, size_t n);
/* A launch that passes a number where the kernel's parameter is named for
 * something the host function has (`<<<...>>>(I, P, height, width, 1)` for
 * a parameter `channels`, in a function given `channels`): the value was
 * written in for the variable. The launch's line; the kernel, the number
 * and the parameter's name into kernel, literal and param; else 0. */
int source_launch_literal_for_name(const char *path, char *kernel, size_t kernel_n, char *literal, size_t literal_n,
                                   char *param, size_t param_n);
/* A `break` of the loop whose for (or while) is at loop_line, in its body
 * (not a nested loop's): it ends the loop early where it runs. Its line,
 * its statement (from the test that guards it on its line) into text;
 * else 0. */
int source_loop_break(const char *path, int loop_line, char *text, size_t n);
/* Whether an if on line guards a jump (`if (...) break;`, continue or
 * return, braced or not): the jump's line, its word into jump; else 0. */
int source_if_guards_jump(const char *path, int line, char *jump, size_t n);
/* A kernel's `if (NAME == NUMBER)` where NAME is the counter of a for loop
 * around it, guarding a store into a __shared__ array (`if (k == 0)
 * N_ds[ty][tx] = ...` in the loop over channels): the tile is loaded in
 * one pass only, and the others reuse it. The if's line, its text (`if
 * (k == 0)`) into test, the loop's line into *loop_line; else 0. */
int source_load_in_one_pass(const char *path, char *test, size_t n, int *loop_line);
/* A pointer read through `*` on line access (`*n++`) that each pass of
 * the loop around it steps twice or more (`n++` there and `n += Width` in
 * the loop's header): its name, the steps as written with their lines
 * (into steps), the loop's line; access, or 0. */
int source_pointer_stepped_twice(const char *path, int access, char *name, size_t name_n, char *steps,
                                 size_t steps_n, int *loop_line);
/* A kernel's if, inside a for loop, that guards a load of a __shared__
 * array (`if (Row < j && mCol < k) ds_M[ty][tx] = M[...];`) and has no
 * else, where nothing else in the loop's pass stores into the array:
 * in a pass whose test fails, the slot keeps what an earlier pass stored.
 * The if's line; the array into array, the load's line, the loop's, and a
 * second such load's (else 0); else 0. */
int source_load_without_else_in_loop(const char *path, char *array, size_t array_n, int *store_line,
                                     int *loop_line, int *other_line);
/* A kernel's store whose index reads a loop's counter, under a test that
 * holds in one pass of that loop only (`if (... && k == in.channels - 1)
 * out.data[... + k] = acc;`): the other passes' elements are never
 * stored. The test's line; the term (`k == in.channels - 1`) into term,
 * the counter into counter, the loop's and the store's lines; else 0. */
int source_store_in_one_pass(const char *path, char *term, size_t term_n, char *counter, size_t counter_n,
                             int *loop_line, int *store_line);
/* A kernel's `if (COUNTER == BOUND)` (or a `&&` term of it) inside the for
 * loop `for (...; COUNTER < BOUND; ...)` around it, BOUND the same text
 * (blanks aside): the loop ends before the counter reaches its bound, so
 * the test never holds there and what it guards never runs (a store meant
 * for after the last pass). The if's line; the term, the counter and the
 * bound into term, counter and bound, the loop's line and the guarded
 * statement's first line; else 0. */
int source_test_at_loop_bound(const char *path, char *term, size_t term_n, char *counter, size_t counter_n,
                              char *bound, size_t bound_n, int *loop_line, int *guarded_line);
/* A name that the kernel holding line access assigns twice or more before
 * it (`destY = dest / w;` for the first batch, again for the second), whose
 * last value other statements used before a __syncthreads() that comes
 * before the access: the value was theirs, not the access's. The last
 * assignment's line, the first's into *first_line; else 0. */
int source_name_set_again(const char *path, int access, const char *name, int *first_line);
/* The same for a name that the access at line access adds loop_var to in a
 * subscript (`N_ds[destY + i][...]` with loop_var i), or with loop_var ""
 * any name inside a subscript of the line: the name into name, the last
 * assignment's line returned; else 0. */
int source_subscript_set_again(const char *path, int access, const char *loop_var, char *name, size_t n,
                               int *first_line);
/* A name inside a subscript of the access at line access, set before the
 * loop around the access and set again in that loop's body after the
 * access (an index hoisted out of a channel loop whose second batch
 * reuses the name): from the loop's second pass on the access reads the
 * later value. The later set's line; the name into name, the set before
 * the loop into *before_line, the loop's line into *loop_line; else 0. */
int source_subscript_set_later_in_loop(const char *path, int access, char *name, size_t n, int *before_line,
                                       int *loop_line);
/* Whether line uses name, or a name whose last assignment before the line
 * (in its kernel) uses it: `N[nRow * l + Col]` reaches ph through `nRow =
 * ph * TILE_WIDTH + ty`. */
int source_line_reaches_name(const char *path, int line, const char *name);
/* Where line does not use name itself but a name whose last assignment
 * before the line does (`out.data[row_o * ...]` reaches ty through `row_o
 * = blockIdx.y * O_TILE_WIDTH + ty`): that name into via (size bytes); 1,
 * else 0. */
int source_line_name_through(const char *path, int line, const char *name, char *via, size_t size);
/* The for loop at loop_line holds the access at line access, and the
 * access's index does not reach the loop's counter (source_line_reaches_
 * name): each pass reaches the same element. 1 with the counter into
 * counter and, where the access uses an outer loop's counter instead,
 * that name into other (else ""); else 0. */
int source_loop_counter_unused(const char *path, int loop_line, int access, char *counter, size_t n, char *other,
                               size_t other_n);
/* A `^` between a name (or a bracket) and a lone 2 or 3 (`TILE_WIDTH^2`),
 * C's exclusive or where a power reads: its line, the operation's text
 * into text; else 0. */
int source_xor_as_power(const char *path, char *text, size_t size);
/* A kernel's `x >> NAME` or `x << NAME` whose NAME a #define makes 8 or
 * more (`Width >> TILE_WIDTH`: a shift by 16 bits, where a division by 16
 * reads): its line, the operation into text, NAME into by and its value;
 * else 0. */
int source_shift_by_size(const char *path, char *text, size_t size, char *by, size_t by_n, long *value);
/* A call of a function of the maths library (fmaf, fmaxf, sqrtf, ...) as
 * a statement by itself, its value thrown away (`fmaf(a, b, Pvalue);`,
 * as if it added into Pvalue): its line, the function's name into name;
 * else 0. */
int source_discarded_result(const char *path, char *name, size_t n);
/* A for loop around line (or on it) whose counter its header declares
 * with a type narrower than int (`unsigned char k`, `short i`): the loop's
 * line, the counter's name and type, and the most it holds (*most); else
 * 0. Past that it wraps round, so a bound above it is never reached. */
int source_narrow_loop_counter(const char *path, int line, char *name, size_t name_n, char *type, size_t type_n,
                               long *most);
/* The local that gives the row (which 0) or the column (which 1) of the
 * read in the statement on line (`N_ds[..][..] = I[(srcY * width + srcX)
 * * channels + k];`: the row is the first factor of a product in its
 * subscript, srcY; the column the second, or the name added alone, srcX),
 * where a declaration of the kernel's (`int srcY = ...;`) on another line
 * sets it for that read alone (until it is set again, nothing but the
 * read and tests reads it: not Row, which the store reads too): that
 * line, the name and its initialiser into name and init;
 * else 0. Where a tile slot holds the element of the wrong row, that
 * line is where the row was made. */
int source_load_coordinate(const char *path, int line, int which, char *name, size_t n, char *init, size_t init_n);
/* The names in the subscripts of the store on line (`N_ds[destY][destX] =
 * ...`) that the function sets on another line before it: their names,
 * ", "-separated, into names, and those lines into lines (at most max);
 * how many. */
int source_store_index_made(const char *path, int line, char *names, size_t n, int *lines, int max);
/* Of the names the store at line indexes with, and the names their values
 * are made from (each by its last assignment before its use), the first
 * whose assignment varies with no coordinate of bit (code_coordinates'
 * bits: 1 threadIdx.x, 2 threadIdx.y, ...) where another assignment of
 * that name in the kernel, written otherwise, does (`dest = threadIdx.x +
 * TILE_WIDTH * TILE_WIDTH` against `dest = threadIdx.y * TILE_WIDTH +
 * threadIdx.x`). Its line; the name, its value, the other's line and
 * value; else 0. */
int source_index_drops_coordinate(const char *path, int line, unsigned bit, char *name, size_t name_n, char *value,
                                  size_t value_n, int *sibling_line, char *sibling, size_t sibling_n);
/* The object-like #defines of text (len bytes) that fit one line
 * (`#define TILE_WIDTH 16`), at most max, in order; how many. Offsets are
 * the text's; a comment after the value is not part of it. */
typedef struct {
    int line;
    size_t b, e;             /* the line: its first byte, its newline (or len) */
    size_t value_b, value_e; /* the value, blanks and comments off its ends */
    char name[64];
} source_define;
int source_object_defines(const char *text, size_t len, source_define *d, int max);
/* An object-like #define whose value has a top-level operator outside
 * brackets (`#define TILE_WIDTH 32 / 2`), and a use of it where the
 * operator next to the name regroups the pasted text (`width /
 * TILE_WIDTH`: width / 32 / 2, that is (width / 32) / 2): the first use
 * that changes the value, else the first that only rounds differently
 * (`a * TILE_WIDTH`: (a * 32) / 2). The #define's line, or 0 when none. */
typedef struct {
    char name[64];     /* TILE_WIDTH */
    char body[96];     /* its value as written: 32 / 2 */
    char use[128];     /* the use as written: width / TILE_WIDTH */
    char pasted[192];  /* what the compiler sees: width / 32 / 2 */
    char grouped[192]; /* how C groups it: (width / 32) / 2; "" where not told */
    int use_line;      /* the use's line */
    int other_line;    /* a later line with such a use, else 0 */
} source_macro_use;
int source_macro_regrouped(const char *path, source_macro_use *m);
/* A function-like #define that pastes a parameter without parentheses
 * (`#define IDX(r, c) r * Width + c`), and the first use whose argument
 * for it regroups there (`IDX(ph * TILE_WIDTH + ty, Col)`: its `+` binds
 * looser than the body's `*` beside r), or whose body, with no
 * parentheses around it, regroups with an operator around the use
 * (`!IN_IMAGE(in, r, c)` for a body of `&&`s). The #define's line, or 0. */
typedef struct {
    char name[64];    /* IDX */
    char param[32];   /* r */
    char arg[96];     /* ph * TILE_WIDTH + ty */
    char use[256];    /* IDX(ph * TILE_WIDTH + ty, Col) */
    char pasted[256]; /* ph * TILE_WIDTH + ty * Width + Col */
    char fixed[256];  /* #define IDX(r, c) ((r) * Width + (c)) */
    int use_line;
    int whole;        /* not an argument: the body as a whole regroups with the
                         operators around the use (`!IN_IMAGE(...)`); param and
                         arg are "", use and pasted the use with those operators */
} source_macro_arg;
int source_macro_argument_regrouped(const char *path, source_macro_arg *m);
/* Whether one subscript of line `line` (a [...] span) holds both names a
 * and b as words (`N_ds[ty + i][tx + j]`: tx and j). */
int source_subscript_with_both(const char *path, int line, const char *a, const char *b);
/* In source_host.c. The line that sets name from a host allocation
 * (`d_P = (float *)malloc(bytes);`), the call's name (malloc, calloc,
 * realloc) into call (n bytes); 0 when none. */
int source_host_allocation_of(const char *path, const char *name, char *call, size_t n);
/* In source_host.c. An array the access on line access subscripts whose
 * launch argument (`d_P` for the kernel's P) a cudaMalloc allocates only
 * after the kernel's launch: that argument into buffer (n bytes), the
 * launch's line into *launch_line; the cudaMalloc's line, or 0. At the
 * launch the pointer is still NULL (or whatever it held). */
int source_allocated_after_launch(const char *path, int access, char *buffer, size_t n, int *launch_line);
/* In source_host.c. The line of kernel's `__launch_bounds__(N, ...)`,
 * N (a number, or a #define of one) into *max_threads: the most threads a
 * block of it may have, which a launch of more fails; 0 when it has none
 * the text shows. */
int source_launch_bounds_of(const char *path, const char *kernel, long *max_threads);
/* In source_scope.c. Another if of the same kernel whose header is the
 * one on test_line, as written (a test copied with its load, `if (Row < j
 * && mCol < k)` before both tiles' loads): its line, or 0. */
int source_same_test_elsewhere(const char *path, int test_line);
/* In source_scope.c. A for header on line whose third part steps a name
 * and not the loop's own counter (`for (int i = 0; i < TILE_WIDTH; ++ph)`):
 * the counter into counter and that part into step (n bytes each); 1, or
 * 0. The counter never changes: the loop's test holds for ever. */
int source_for_steps_another(const char *path, int line, char *counter, char *step, size_t n);
/* In source_scope.c. A test on line that compares a difference of two
 * names with 0 (`k - mCol > 0`, `>= 0`, `!= 0`) where one of them is
 * declared unsigned: the difference is unsigned too and never below 0 (it
 * wraps round). Its line; the difference into diff, the unsigned name into
 * name, its declaration's line into *decl_line; 0 when none. */
int source_unsigned_difference_test(const char *path, int line, char *diff, size_t diff_n, char *name, size_t name_n,
                                    int *decl_line);
/* In source_statement.c. An array the access at line `access` subscripts
 * (`in.data[...]`, `p[...]`) whose base the loop around the access moves
 * (`in.data += k;` in its body): the steps add up from pass to pass. The
 * step's line; the base into base, the step as written into step, the
 * loop's line into *loop_line; 0 when none. */
int source_base_stepped_in_loop(const char *path, int access, char *base, size_t base_n, char *step, size_t step_n,
                                int *loop_line);
/* In source_statement.c. An if over the access at line `access` whose
 * test cannot tell the thread's element: (READ_BEFORE_SET) its condition
 * reads names its own body sets before the access (`if (Row < Width) {
 * Row = ...`: the test saw the value before); or (SET_BEFORE_LOOP) inside a
 * loop, no name of its condition changes from pass to pass, one of them a
 * comparison worked out before the loop (`bool in = tx < k;` then `if
 * (in)`), while a name of the access's subscripts does change (the loop's
 * counter or a name set in the loop); or (SET_BEFORE_ITS_NAMES) a name of
 * its condition is a comparison worked out from names that are set again
 * between it and the test (`bool inside = srcY >= 0 && ...;`, then `srcY =
 * ...;`, then `if (inside)`): name, its line, the name set again
 * (index_name) and that line (index_line). The kind, or 0. */
enum { SOURCE_TEST_READ_BEFORE_SET = 1, SOURCE_TEST_SET_BEFORE_LOOP = 2, SOURCE_TEST_SET_BEFORE_ITS_NAMES = 3 };
typedef struct {
    int kind;
    int test_line;       /* the if */
    int set_line;        /* 1: the first line of its body that sets one; 2: where name was worked out */
    int held_line;       /* 1: name's assignment before the test (the value it tested), or 0 */
    int loop_line;       /* 2: the loop */
    int index_line;      /* 2: where index_name is set in the loop (the loop's line for its counter) */
    char name[64];       /* the name said first */
    char names[128];     /* 1: every name of the condition the body sets ("Row, Col") */
    char index_name[64]; /* 2: the access's name that changes each pass */
} source_test_stale;
int source_stale_test(const char *path, int access, source_test_stale *t);
/* The innermost test around line (an if's, an else's, a loop's): its
 * line, its header into out (`if (destY < w)`, `for (...)`), *in_else 1
 * where line is in the if's else; 0 when none. */
int source_test_around(const char *path, int line, char *out, size_t size, int *in_else);
/* A __syncthreads() after line first and before line second that an if
 * (or its else) controls: its line, the if's line and header into
 * *test_line and test; else 0. Where the test is false for a thread (or
 * for the whole launch), that barrier does not stand between the two
 * lines: a race between them is what it lets through. */
int source_conditional_barrier(const char *path, int first, int second, char *test, size_t n, int *test_line);
/* An if or a for whose body is an empty `;` right after its header
 * (`if (Row < j && Col < l);`): the line of that `;`, the header into out;
 * 0 when none. */
int source_empty_body(const char *path, char *out, size_t size);

/* The left operand, as written, of comparison op ("<", ">=", ...), operand
 * k (from 0) of the && and || of the if, while or for condition on line n
 * of path: "destY" of `if (destY < TILE_WIDTH)`. 0, or -1 when the line
 * shows no such comparison there. */
int source_compared_operand(const char *path, int n, int k, const char *op, char *out, size_t size);
/* Both sides of that comparison ("destY", "TILE_WIDTH"), into left and right
 * (either may be NULL; size bytes each): 0, or -1 as above. */
int source_compared_sides(const char *path, int n, int k, const char *op, char *left, char *right, size_t size);
/* Whether the condition on line `line` bounds `name` from below (`name >=
 * ...`, `name > ...`, `... < name`, `... <= name`): 1, else 0, with a clause
 * that bounds another plain name from 0 into sibling ("`srcY >= 0` does
 * for srcY"; "" when none) for the sentence that asks for one. */
int source_test_bounds_below(const char *path, int line, const char *name, char *sibling, size_t n);
/* A member that the index of the access at line `access` multiplies by
 * (`row_i * in.pitch`), set by an assignment elsewhere in the file
 * (`d_in_img.pitch = ...;`, on the host): that assignment's last line, the
 * member as the access writes it into member (n bytes); else 0. */
int source_stride_set_at(const char *path, int access, char *member, size_t n);
/* A kernel's line that casts to a pointer to bytes (`(char *)in.data +
 * row_i * in.pitch`) and multiplies by a member (source_stride_set_at)
 * that the host sets to a count of elements, bytes divided by a sizeof
 * (`d_in_img.pitch = in_pitch_bytes / sizeof(float)`): a step in
 * elements added to a byte address. That line, the member, the host's
 * line into *set_line and the sizeof's type; else 0. */
int source_byte_step_in_elements(const char *path, char *member, size_t n, int *set_line, char *type, size_t type_n);
/* The pitch variable the cudaMallocPitch on line gives its pitch to
 * (`&in_pitch_bytes`: in_pitch_bytes) into pitch; 1, or 0 when the line
 * has no such call or its argument is no plain `&name`. */
int source_pitch_of_allocation(const char *path, int line, char *pitch, size_t n);
/* Whether line divides name by something other than a sizeof (`in_pitch_bytes
 * / in->channels`): the divisor as written into divisor; 1, else 0. */
int source_divided_not_by_size(const char *path, int line, const char *name, char *divisor, size_t n);
/* A cudaMemcpy2D on line whose width (its fifth argument) is a plain name
 * a cudaMallocPitch was given as its pitch (`&out_pitch_bytes`): a pitch,
 * padding and all, where a row's bytes belong. 1, with the name, that
 * cudaMallocPitch's width argument (`row_bytes`) and its buffer into
 * width, row_bytes and buffer (n bytes each); else 0. */
int source_copy2d_width_is_pitch(const char *path, int line, char *width, char *row_bytes, char *buffer, size_t n);
/* Whether line n of path multiplies name by stride (`name * stride` or
 * `stride * name`, whole tokens), as an index's row term does. */
int source_line_has_product(const char *path, int n, const char *name, const char *stride);
/* Whether line n of path, blanks aside, is also a line of other (a
 * declaration the skeleton has as the file has it). */
int source_line_also_in(const char *path, int n, const char *other);
/* Line n of path with the words a and b exchanged in the one subscript
 * that holds both (`in.data[col_i * in.pitch + row_i * c]` for col_i and
 * row_i: `in.data[row_i * in.pitch + col_i * c]`); NULL where no one
 * subscript does (malloc'd). */
char *source_line_words_exchanged(const char *path, int n, const char *a, const char *b);
/* The plain word that multiplies `name` on line n (`Row * k` or `k * Row`:
 * k), into out; 1 if there is one, else 0. */
int source_line_factor(const char *path, int n, const char *name, char *out, size_t size);
/* The same for a bracketed factor after name (`Row * (gridDim.x *
 * TILE_WIDTH)`: `(gridDim.x * TILE_WIDTH)`, brackets kept); 1, or 0. */
int source_line_group_factor(const char *path, int n, const char *name, char *out, size_t size);
/* Whether line n of path holds word as a whole token. */
int source_line_has_word(const char *path, int n, const char *word);
/* Whether line n of path holds the character c (as written). */
int source_line_has_char(const char *path, int n, char c);
/* Whether line n of path holds the text s (as written, `=+`). */
int source_line_has_text(const char *path, int n, const char *s);
/* The largest N of `name + N` (a whole number) on line n of path (`k + 1`
 * in `M[Row * Width + k + 1]`); 0 when none. */
int source_line_name_offset(const char *path, int n, const char *name);
/* How many times line n of path reads name as it is (`ds_M[ty][i]`:
 * before a `]`, `)`, `*`, `;` or `,`) into *bare, and with c added (`i +
 * 1`) into *offset. */
void source_line_name_reads(const char *path, int n, const char *name, int c, int *bare, int *offset);
/* What the for loop on line n adds to name each pass (`k += 2`: 2, `k++`:
 * 1, `--k`: -1); 0 when the line shows no such step. */
int source_loop_step(const char *path, int n, const char *name);
/* Whether line n of path multiplies name (`k * in.height`, `w * k`). */
int source_line_multiplies(const char *path, int n, const char *name);
/* Whether line n declares name const, in its own declarator's words
 * (`const float w`; not `float Width` beside `const float *M`). */
int source_declared_const(const char *path, int n, const char *name);
/* An assignment on line n whose value is a sum (or product) followed by a
 * conditional at the top level (`k / T + (k % T) ? 1 : 0`): `?:` binds
 * looser than the arithmetic, so the whole sum is its condition. The value
 * as written into value, and the same with the conditional in parentheses
 * into fix (size bytes each); 1, else 0. */
int source_ternary_binds_sum(const char *path, int n, char *value, char *fix, size_t size);
/* Another line of path that assigns name a value the same as line's but
 * for one word (`srcX = ... + destX - ...` beside `int srcX = ... +
 * threadIdx.x - ...`): its line, line's word into from and the other's
 * into to (size bytes each); else 0. */
int source_twin_assignment(const char *path, int line, const char *name, char *from, char *to, size_t size);
/* "line N (`the line's text`)" of the student's file, for a sentence
 * (malloc'd); "line N" when the file has no such line. */
char *sanitize_quote(const char *file, int line);

/* A checker's FILE:LINE as a sentence names it: the student's line, quoted,
 * when FILE is the student's file (by name: the checkers' builds compile a
 * copy); else "FILE:LINE" (malloc'd). */
char *sanitize_quote_at(const char *student, const char *file, int line);

/* In source_index.c. The array read after the `=` of line access (`I[(srcY
 * * width + srcX) * channels + k]`) where no if or loop around it tests a
 * name of its index, while the same read, written alike at another line of
 * the kernel, stands in the body of an if that does (the first batch's
 * ghost test, the second batch's left out): the read's text into read
 * (read_n bytes), the twin's line into *twin_line, *has_else 1 where that
 * if has an else; that if's line, or 0. */
int source_twin_read_guarded(const char *path, int access, char *read, size_t read_n, int *twin_line, int *has_else);
/* In source_index.c. Whether the first array read after the `=` of line
 * access does not index with name itself but with a name whose last
 * assignment before the line (in its kernel) reads it (`I[(srcY * width
 * + srcX) ...]` with srcY set from destY): that name into via; 1, else 0. */
int source_read_index_via(const char *path, int access, const char *name, char *via, size_t n);
/* In source_index.c. Whether the first array read after the `=` of line
 * access indexes with name. */
int source_read_index_has(const char *path, int access, const char *name);
/* In source_index.c. A kernel's if that guards a store into a __shared__
 * array (a tile's load) with a clause bounding one flat value of two
 * coordinates by a product (`srcY * width + srcX < height * width`): it
 * keeps that value inside, not each coordinate. The if's line; the two
 * sides, blanks out, into flat and bound; else 0. */
int source_flat_ghost_test(const char *path, char *flat, size_t flat_n, char *bound, size_t bound_n);
/* In source_index.c. A name the first array read after the `=` of line
 * access indexes with, whose last assignment before the line has part as
 * one of its terms, not the whole (`ph * TILE_WIDTH` of `mCol = ph *
 * TILE_WIDTH + tx`): that name into via, the assignment's line into
 * *set_line; 1, else 0. */
int source_read_index_part_of(const char *path, int access, const char *part, char *via, size_t n, int *set_line);
/* In source_index.c. The first if of the kernel holding line access whose
 * condition bounds name from above (`name < X` or `name <= X`): that
 * clause's text into clause, its line returned; else 0. */
int source_upper_test_of(const char *path, int access, const char *name, char *clause, size_t n);
/* In source_eval.c. Whether text, an operand of a comparison on line
 * (in a kernel), is a constant: numbers, the file's #defines and names
 * the file never sets (a header's macros), no name the kernel assigns
 * before the line or takes as a parameter, no member, element or call. */
int source_constant_text(const char *path, int line, const char *text);
/* In source_eval.c. The range, across a block of threads[] threads
 * (block[] its blockIdx), of the value the assignment of `name` on line
 * `line` of a kernel gives it, computed from the source (the #defines of
 * the file and of header, the names' assignments before it): 0 with *lo
 * and *hi, or -1 when some part of it is not known from the text alone (a
 * parameter, a cast, a call, a name stepped or set in a branch). */
int source_assignment_range(const char *path, const char *header, int line, const char *name, const long block[3],
                            const long threads[3], long *lo, long *hi);
/* The value the assignment of `name` on `line` gives one thread (thread[])
 * of block block[], source_assignment_range's way, with no block size (a
 * value that reads blockDim is unknown): 0 and *out, or -1. */
int source_assignment_at(const char *path, const char *header, int line, const char *name, const long block[3],
                         const long thread[3], long *out);
/* In source_eval.c. The line of a kernel's assignment from blockIdx.axis
 * whose value one block further along axis is step more (`int col_o =
 * blockIdx.x * (BLOCK_WIDTH - MASK_RADIUS) + tx;` for 14): where the
 * blocks' tiles are stepped; else 0. */
int source_block_step_line(const char *path, const char *header, char axis, long step);
/* The store at store_line into an array declared on decl_line with at
 * most two bounds (`ds_M[ty][tx] = ...`, `__shared__ float
 * ds_M[TILE_WIDTH - 1][TILE_WIDTH - 1];`): each subscript's value for
 * thread[] (block 0, names by their last assignment before the store) into
 * sub[], each declared bound into dims[]; the count of subscripts, or 0
 * where the source does not tell them all. */
int source_store_subscripts(const char *path, const char *header, int store_line, int decl_line, const long thread[3],
                            long sub[2], long dims[2]);
/* In source_sum.c. The last line before `line`, in its kernel, that sets
 * name (`name = `, `name += `, `name++`, `&name` handed on), or 0. */
int source_last_set_before(const char *path, int line, const char *name);
/* Where the value `name` holds at line `line` of a kernel comes from: the
 * line of its last assignment before it, then of the local name that value
 * takes the thread's place from, and so on, to the assignment that reads
 * threadIdx or blockIdx itself; lines[] and names[] nearest first, at most
 * max; how many (0: none found). */
int source_value_origins(const char *path, int line, const char *name, int *lines, char (*names)[48], int max);

/* A name of the store's subscripts on line store_line (its last
 * assignment before it in the kernel) that reads threadIdx along an axis
 * and yet, computed from the source for a launch of threads[] blocks of
 * grid[] (source_assignment_range's way), takes one value along that axis
 * in a block (the first, else block (1, 1)): threads that differ there
 * store to one element. Its name into name, the block into block[], the
 * value and the axis ('x'...); the line of its assignment, or 0. */
int source_index_collapse(const char *path, const char *header, int store_line, const long grid[3],
                          const long threads[3], char *name, size_t name_n, long block[3], long *value, char *axis);

/* In source_scope.c. A name stored into on line (`acc = 0.0f;`, `acc +=
 * ...`) that the kernel declares `__shared__` with no bounds (`__shared__
 * float acc;`): one variable for the whole block. Its declaration's line,
 * the name into name (n bytes); 0 when none. */
int source_shared_scalar_stored(const char *path, int line, char *name, size_t n);
/* In source_scope.c. A `static` local declared in a __global__ function's
 * body, not __shared__ (`static float ds_N[TILE_WIDTH][TILE_WIDTH];`):
 * one variable in global memory for the whole grid. Its line, its name
 * into name (n bytes); 0 when none. */
int source_kernel_static_local(const char *path, char *name, size_t n);
/* In source_scope.c. The for loop around line `line` whose test bounds
 * its counter from above (`for (int ph = 0; ph < numPhases; ++ph)`): its
 * line, the counter and the bound as written into counter and bound (n
 * bytes each); 0 when none. */
int source_enclosing_loop(const char *path, int line, char *counter, char *bound, size_t n);
/* In source_names.c. Whether bound, a loop's bound as written on line, is
 * a count of divisor's steps: it divides by divisor itself, or it is a
 * name whose last assignment before the line does (`numPhases = (k +
 * TILE_WIDTH - 1) / TILE_WIDTH;`). */
int source_count_of(const char *path, int line, const char *bound, const char *divisor);
/* In source_scope.c. A step of name (`name += X;`, `name -= X;`, X a
 * number or a name the file defines as one) in the body of the loop
 * around line use_line, before that line: the name moves on before this
 * iteration's use of it. Its line, the amount (signed) and the statement
 * into step; else 0. */
int source_step_before_use(const char *path, int use_line, const char *name, long *amount, char *step, size_t n);
/* In source_scope.c. A local of the kernel that holds line use_line,
 * declared there, set once (its declaration's value or one assignment, on
 * another line) and read on use_line alone: the line that sets it, its
 * value as written into value; 0 otherwise. Where an edit of that one use
 * mends the program, the value is as much the place as the use. */
int source_local_used_once(const char *path, const char *name, int use_line, char *value, size_t size);

/* In source_index.c. The if that holds the global access on line
 * access, one of whose clauses (`nRow < k`) bounds a local name the
 * access's index does not read, while one local name of the index that
 * takes the thread's place (mCol) is in no clause: those two names and
 * the clause into tested, missing and clause (n bytes each), the if's line
 * into *test_line; 1, or 0. Or, where no clause bounds another name and
 * one of the index's is in none (`if (nRow < k)` before `N[nRow * l +
 * Col]`), tested "" and clause the bound another test of the kernel gives
 * that name (`Col < l`). */
int source_test_bounds_other_name(const char *path, int access, char *tested, char *missing, char *clause,
                                  size_t n, int *test_line);

/* In source_index.c. The __shared__ array name (declared on line decl)
 * subscripted on line access with a plain name first (`N_ds[destY][...]`):
 * that name into sub and the declaration's first bound as written (`w`)
 * into dim (n bytes each); 1 where no test around the access (an if's,
 * an else's, a loop's, out to the kernel's body) has that name, else 0;
 * *if_line the line of the if whose branch holds the access, where the
 * innermost test around it is one (its store and its else's), else 0.
 * A row no test bounds is what runs past the tile where fewer slots
 * remain than threads (a second batch). */
int source_tile_row_untested(const char *path, int access, const char *name, int decl, char *sub, char *dim,
                             size_t n, int *if_line);

/* In source_index.c. A __shared__ array subscripted on line access by
 * the counter of the for loop around it, a loop whose counter starts at
 * a value that names something (`for (int i = ph * TILE_WIDTH; ...)`):
 * the counter and that first value into counter and start (n bytes
 * each), the loop's line into *loop_line; 1, or 0. A tile's indices run
 * from 0 whatever the phase: the start is where its reads go past it. */
int source_tile_index_loop_offset(const char *path, int access, char *counter, char *start, size_t n, int *loop_line);

/* In source_scope.c. A kernel's for loop with no first part (`for (; i <
 * TILE_WIDTH; ++i)`) inside another loop, whose counter only an
 * assignment before that outer loop sets, or the first part of its header
 * (`for (int i = 0, j = 0; ...)`, not its step): from the outer loop's second
 * pass on it starts where the last pass left it. The loop's line; the
 * counter into name, the outer loop's line and the assignment's; 0. */
int source_loop_counter_not_restarted(const char *path, char *name, size_t size, int *outer_line, int *set_line);

/* In source_index.c. A read of a 2D __shared__ array whose first subscript
 * varies with the thread's x alone and its second with its y alone
 * (`N_ds[threadIdx.x + i][threadIdx.y + j]`): a tile's rows go with y. The
 * line; the array's name into name and the read with its two subscripts
 * exchanged into fixed; else 0. */
int source_tile_read_axes_exchanged(const char *path, char *name, size_t name_n, char *fixed, size_t fixed_n);
/* The same for a store into such an array on line (`ds_N[tx][ty] = ...`). */
int source_tile_store_axes_exchanged(const char *path, int line, char *name, size_t name_n, char *fixed,
                                     size_t fixed_n);

#endif
