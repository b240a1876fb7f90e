package com.example.typestar;

import java.util.Iterator;
import java.util.List;

/** Removes empty tags; the iterator protocol is followed. */
public final class TagList {
    public static void dropEmpty(List<String> tags) {
        Iterator<String> it = tags.iterator();
        while (it.hasNext()) {
            if (it.next().isEmpty()) {
                it.remove();
            }
        }
    }
}
