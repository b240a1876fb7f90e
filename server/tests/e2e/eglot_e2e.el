;;; eglot_e2e.el --- end-to-end check of `typestar lsp' with Emacs and eglot  -*- lexical-binding: t -*-
;; Run by server/tests/e2e.rs:
;;   TS_LSP=typestar TS_ROOT=project TS_HOVER_LINE=8 TS_HOVER_COL=14 \
;;     emacs --batch -l eglot_e2e.el File.java File.kt
;; Opens each file under eglot, waits for its diagnostics to reach Flymake and prints them,
;; then prints the hover at TS_HOVER_LINE:TS_HOVER_COL (0-based) of the first file.
;; Exits 1 when diagnostics or the hover never arrive.
;; `--batch' without `-Q' loads Debian's site start-up, which puts ELPA's eglot on the load path.

(require 'eglot)
(require 'flymake)

(defun ts-fail (message &rest args)
  (princ (format "eglot_e2e: %s\n" (apply #'format message args)) #'external-debugging-output)
  (kill-emacs 1))

(defun ts-env (name)
  (or (getenv name) (ts-fail "%s is not set" name)))

;; Emacs 28 has no Kotlin mode without a package (MELPA's kotlin-mode): a bare one is enough
;; for eglot, which names the document's language after the mode (`kotlin').
(unless (fboundp 'kotlin-mode)
  (define-derived-mode kotlin-mode prog-mode "Kotlin")
  (add-to-list 'auto-mode-alist '("\\.kts?\\'" . kotlin-mode)))

;; The set-up of editors/README.md.
(add-to-list 'eglot-server-programs
             `((java-mode java-ts-mode kotlin-mode kotlin-ts-mode) . (,(ts-env "TS_LSP") "lsp")))

;; The example project is inside the repository's Git tree: make it its own project root, as
;; a user opening the app would have it.
(let ((root (file-name-as-directory (expand-file-name (ts-env "TS_ROOT")))))
  (add-hook 'project-find-functions
            (lambda (dir)
              (when (string-prefix-p root (expand-file-name dir))
                (cons 'transient root)))))

(setq eglot-sync-connect 30)
(setq eglot-autoshutdown t)

(defun ts-wait (predicate seconds)
  "Process input until PREDICATE holds or SECONDS pass; return PREDICATE's last value."
  (let ((deadline (+ (float-time) seconds))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun ts-check-file (file)
  "Open FILE under eglot and print the diagnostics Flymake shows for it."
  (let ((buffer (find-file-noselect file)))
    (with-current-buffer buffer
      ;; What `eglot-ensure' does at the first command: start a server for the project, or let
      ;; the running one manage this buffer (opening the file already did).
      (unless (eglot-current-server)
        (apply #'eglot (eglot--guess-contact)))
      (unless (eglot-managed-p)
        (ts-fail "eglot does not manage %s" file))
      ;; Flymake defers its first check to the first command in a displayed window; batch
      ;; mode has neither, so start it as that command would.
      (flymake-start)
      (unless (ts-wait #'flymake-diagnostics 30)
        (ts-fail "no diagnostics reached Flymake for %s" file))
      (let ((diagnostics (sort (flymake-diagnostics)
                               (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))
        (princ (format "%s diagnostics: %d\n" (file-name-nondirectory file) (length diagnostics)))
        (dolist (d diagnostics)
          (save-excursion
            (goto-char (flymake-diagnostic-beg d))
            (princ (format "%s:%d:%d: %s\n" (file-name-nondirectory file)
                           (line-number-at-pos) (1+ (current-column))
                           (flymake-diagnostic-text d)))))))
    buffer))

(let* ((files (or command-line-args-left (ts-fail "no file given")))
       (buffers (mapcar #'ts-check-file files)))
  (setq command-line-args-left nil)
  (with-current-buffer (car buffers)
    (goto-char (point-min))
    (forward-line (string-to-number (ts-env "TS_HOVER_LINE")))
    (forward-char (string-to-number (ts-env "TS_HOVER_COL")))
    (let* ((answer (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                    (eglot--TextDocumentPositionParams)))
           (contents (and answer (plist-get answer :contents))))
      (unless contents
        (ts-fail "no hover at %s:%s" (getenv "TS_HOVER_LINE") (getenv "TS_HOVER_COL")))
      (princ (format "hover:\n%s\n" (if (stringp contents) contents (plist-get contents :value))))))
  (eglot-shutdown-all)
  (kill-emacs 0))

;;; eglot_e2e.el ends here
