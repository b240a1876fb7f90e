package com.example.typestar

import java.io.File
import java.io.FileInputStream

/** Reads notes from disk; `use {}` closes the stream, so reading afterwards is a bug. */
class NotesReader(private val file: File) {
    fun firstByte(): Int = FileInputStream(file).use { it.read() }

    fun readTwice(): Int {
        val input = FileInputStream(file)
        val first = input.read()
        input.close()
        return first + input.read() // expect(definite): read
    }
}
